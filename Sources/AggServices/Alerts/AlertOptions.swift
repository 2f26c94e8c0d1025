import AggCore
import AggJSON
import AggOptions
import FoundationEssentials

#if canImport(Glibc)
    @preconcurrency import Glibc
#endif

/// The alert options of `agg watch`, `agg premium --watch`, `agg record` and `agg serve`
/// (docs/alerts.md).
package enum AlertOptions {
    static let alert = Option<[String]>(
        "alert", value: "EXPR",
        help:
            "Alert when [VENUE:]SYMBOL FIELD OP VALUE becomes true (FIELD last, premium, usdtPremium or change; OP >, <, >=, <=; '%' for percents), or on SYMBOL withdraw|deposit closed; repeatable.",
        parser: ValueParser(expected: "an alert rule such as 'upbit:BTC premium > 3%'") { [$0] }, combine: +)
    static let reset = Setting(
        Option<Decimal>(
            "alert-reset", value: "PERCENT", help: "",
            parser: ValueParser(expected: "a percent such as 10% or 0%") { text in
                guard text.hasSuffix("%") else { return nil }
                return NumberText.amount(String(text.dropLast()))
            }),
        help: "Re-arm a fired alert once the value is back past the threshold by this share of it",
        builtIn: AlertSettings.defaultResetPercent, shown: { "\($0)%" })
    static let cooldown = Setting(
        Option<Int64>(
            "alert-cooldown", value: "DURATION", help: "",
            parser: .duration(minimum: 0, expected: "a duration such as 5m, 30s or 0")),
        help: "Deliver at most one alert per rule and venue within this time (0 for none)",
        builtIn: AlertSettings.defaultCooldownSeconds, shown: { ValueParser<Double>.durationText(Double($0)) })
    static let log = Option<String>(
        "alert-log", value: "FILE", help: "Append each alert to FILE as one JSON object a line.",
        parser: ValueParser(expected: "a file path") { $0.isEmpty ? nil : $0 })
    static let program = Option<String>(
        "on-alert", value: "PROGRAM",
        help: "Run PROGRAM (a path; no shell) for each alert, with the alert as JSON on its standard input.",
        parser: ValueParser(expected: "the path of a program") { $0.isEmpty ? nil : $0 })
    static let programArgument = Option<[String]>(
        "on-alert-arg", value: "ARG", help: "One argument for the --on-alert program; repeatable, in order.",
        parser: ValueParser(expected: "an argument") { [$0] }, combine: +)

    /// Every alert option, in the order help shows them.
    package static let all: [any OptionDeclaration] = [
        alert, reset, cooldown, log, program, programArgument, Settings.notify, Settings.notifySecretFile,
    ]
}

/// The alerts one run of a command was asked for: the rules, checked against what the command
/// can see, and where alerts go.
package struct AlertSetup: Sendable {
    package var rules: [AlertRule]
    package var settings: AlertSettings
    package var delivery: AlertDelivery

    /// The coins the rules name: the only ones a tick's readings need.
    package var symbols: Set<String> { Set(rules.map(\.symbol)) }

    /// The rules waiting for a transfer status.
    var transferRules: [AlertRule] {
        rules.filter { if case .closed = $0.condition { true } else { false } }
    }

    /// What a command can evaluate, to check the rules against.
    package struct Scope: Sendable {
        /// The command as the user typed it (`agg watch`).
        var command: String
        /// The threshold fields its ticks carry.
        var fields: [AlertRule.Field]
        /// Where the others can be had, for the message.
        var elsewhere: String
        /// The venues it asks.
        var venues: [AdapterDescriptor]
        /// The coins it asks for; `nil` for every coin (the whole board).
        var symbols: [String]?
        /// The venues whose premiums are measured (those quoting in the board's currency).
        var localVenues: [String] = []
        /// Whether the command asks the venues' transfer status (`withdraw|deposit closed`).
        var asksTransferStatus = true
        /// Whether the command records market events (`agg record --events`): event rules
        /// need it.
        var recordsEvents = false

        /// What `agg serve`'s board can evaluate: every field, on `venues`, every coin;
        /// premiums on the venues quoting in `currency`.
        package static func board(command: String, venues: [AdapterDescriptor], currency: String) -> Scope {
            Scope(
                command: command, fields: AlertRule.Field.allCases, elsewhere: "", venues: venues, symbols: nil,
                localVenues: venues.filter { $0.quoteCurrencies.contains(currency) }.map(\.id))
        }
    }

    /// The setup from the command line, or `nil` without `--alert`: `AlertRequest.make`, shown
    /// on `console`.
    package static func make(
        _ arguments: ParsedArguments, scope: Scope, context: CLIContext,
        programTimeLimit: Double = AlertProgram.defaultTimeLimit
    ) throws(AggError) -> AlertSetup? {
        try AlertRequest.make(arguments, scope: scope, context: context)?
            .setup(console: context.console, programTimeLimit: programTimeLimit)
    }

    /// A rule the command could never evaluate is a usage error, rather than an alert that
    /// silently never fires.
    fileprivate static func check(_ rule: AlertRule, text: String, scope: Scope) throws(AggError) {
        func failure(_ detail: String) -> AggError { .usage("--alert '\(text)': \(detail)") }
        if case .event = rule.condition {
            // Events come from every venue's event sources, whatever venues and coins the
            // command's prices are of.
            guard scope.recordsEvents else {
                throw failure(
                    "\(scope.command) does not record market events (event alerts need agg record --events)")
            }
            return
        }
        if case .threshold(let field, _, _) = rule.condition, !scope.fields.contains(field) {
            throw failure("\(scope.command) has no \(field.rawValue) (\(scope.elsewhere))")
        }
        let ids = scope.venues.map(\.id)
        if let venue = rule.venue, !ids.contains(venue) {
            throw failure("\(venue) is not among the venues asked (\(ids.joined(separator: ", ")))")
        }
        if case .threshold(let field, _, _) = rule.condition, field == .premium || field == .usdtPremium,
            let venue = rule.venue, !scope.localVenues.contains(venue)
        {
            throw failure(
                "\(venue) is a global venue: premiums are measured on \(scope.localVenues.joined(separator: ", "))")
        }
        if let symbols = scope.symbols, !symbols.contains(rule.symbol) {
            throw failure("\(rule.symbol) is not among the symbols asked (\(symbols.joined(separator: ", ")))")
        }
        if case .closed = rule.condition, !scope.asksTransferStatus {
            throw failure(
                "\(scope.command) does not ask transfer status; withdraw and deposit alerts are on agg watch "
                    + "and agg premium --watch")
        }
        if case .closed = rule.condition,
            !scope.venues.contains(where: { $0.supports(.transferStatus) && (rule.venue ?? $0.id) == $0.id })
        {
            throw failure("none of the venues asked publishes transfer status")
        }
    }
}

extension AlertSetup {
    /// What one tick's alerts did.
    package struct TickOutcome: Sendable {
        /// Lines written on standard error (a redrawn board moves back over them).
        package var lines: Int
        /// Whether `--alert-log` could not be written: the command stops and exits 74.
        package var failed: Bool
    }

    /// A fresh in-memory monitor of the rules.
    package func monitor() -> AlertMonitor {
        AlertMonitor(rules: rules, settings: settings)
    }

    /// Evaluates one tick's `observations` at `time` and delivers what fired.
    package func tick(_ observations: AlertObservations, at time: Timestamp, monitor: inout AlertMonitor) async
        -> TickOutcome
    {
        let evaluation: AlertEvaluation
        do throws(AggError) {
            evaluation = try await monitor.evaluate(observations, at: time)
        } catch {
            delivery.console.printError("agg: alerts: \(error.description)")
            return TickOutcome(lines: 1, failed: false)
        }
        delivery.hold(evaluation.held)
        let failure = await delivery.deliver(evaluation.alerts)
        return TickOutcome(
            lines: evaluation.held.count + evaluation.alerts.count + (failure == nil ? 0 : 1), failed: failure != nil)
    }
}

extension AlertSetup {
    /// Delivers one alert for each of `events` that a rule waits for (the first such rule):
    /// each event is stored once, so it alerts once; no cooldown holds it back.
    package func deliver(events: [MarketEvent]) async -> TickOutcome {
        var alerts: [Alert] = []
        for event in events {
            guard let rule = rules.first(where: { $0.matches(event) }) else { continue }
            alerts.append(Alert(time: event.firstObserved, rule: rule, exchange: event.venue, reading: .event(event)))
        }
        let failure = await delivery.deliver(alerts)
        return TickOutcome(lines: alerts.count + (failure == nil ? 0 : 1), failed: failure != nil)
    }
}

/// The alerts one run was asked for, checked before any terminal is involved: the rules
/// (checked against what the command can see), their settings, the `--on-alert` program (an
/// executable file) and the `--alert-log` file, opened. `setup(console:)` adds where they show.
package struct AlertRequest: Sendable {
    /// `--on-alert` and its `--on-alert-arg`s.
    package struct Program: Sendable, Equatable {
        var path: String
        var arguments: [String]
    }

    var rules: [AlertRule]
    var settings: AlertSettings
    var program: Program?
    var log: AlertLogFile?
    /// `--notify` (or the config file's `notify`): where alerts are sent over HTTP.
    var notify: NotifyPlan?

    /// The coins the rules name: the only ones a tick's readings need.
    var symbols: Set<String> { Set(rules.map(\.symbol)) }

    /// The rules waiting for a transfer status.
    var transferRules: [AlertRule] {
        rules.filter { if case .closed = $0.condition { true } else { false } }
    }

    /// The request from the command line, or `nil` without `--alert` (then the other alert
    /// options are usage errors).
    package static func make(_ arguments: ParsedArguments, scope: AlertSetup.Scope, context: CLIContext)
        throws(AggError) -> AlertRequest?
    {
        let registry = context.registry
        guard let texts = arguments[AlertOptions.alert] else {
            for option in AlertOptions.all.map(\.spec) where option.name != "alert" {
                if arguments.contains(option) { throw .usage("--\(option.name) needs --alert") }
            }
            return nil
        }
        var rules: [AlertRule] = []
        for text in texts {
            let rule = try AlertRule.parse(text, venues: registry.descriptors)
            try AlertSetup.check(rule, text: text, scope: scope)
            if !rules.contains(rule) { rules.append(rule) }
        }
        if arguments[AlertOptions.programArgument] != nil, arguments[AlertOptions.program] == nil {
            throw .usage("--on-alert-arg needs --on-alert")
        }
        var program: Program?
        if let path = arguments[AlertOptions.program] {
            var status = stat()
            guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG, access(path, X_OK) == 0 else {
                throw .usage("--on-alert '\(path)': not an executable file (a path; no shell, no PATH lookup)")
            }
            program = Program(path: path, arguments: arguments[AlertOptions.programArgument] ?? [])
        }
        let settings = context.settings(arguments)
        let destinations = settings.value(Settings.notify)
        let secretFile = settings.value(Settings.notifySecretFile)
        if destinations.isEmpty, arguments.contains(Settings.notifySecretFile.spec) {
            throw .usage("--notify-secret-file needs --notify")
        }
        var notify: NotifyPlan?
        if !destinations.isEmpty {
            notify = try NotifyPlan.make(
                destinations, secretFile: secretFile, environment: context.environment,
                makeHTTPClient: context.makeHTTPClient)
            notify?.clock = context.notifyClock
        }
        let log = try arguments[AlertOptions.log].map { path throws(AggError) in try AlertLogFile(path: path) }
        return AlertRequest(
            rules: rules,
            settings: AlertSettings(
                resetPercent: arguments.value(AlertOptions.reset),
                cooldownSeconds: arguments.value(AlertOptions.cooldown)),
            program: program, log: log, notify: notify)
    }

    /// The alerts delivered on `console` (one line each, the bell), to the log and the program.
    package func setup(console: Console, programTimeLimit: Double = AlertProgram.defaultTimeLimit) -> AlertSetup {
        AlertSetup(
            rules: rules, settings: settings,
            delivery: AlertDelivery(
                console: console, log: log,
                program: program.map {
                    AlertProgram(path: $0.path, arguments: $0.arguments, timeLimit: programTimeLimit, console: console)
                }, notify: notify?.dispatcher(console: console)))
    }
}
