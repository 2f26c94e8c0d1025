import AggCore
import AggDataVenues
import AggOptions
import AggServe
import AggServices

/// The `agg` command line: dispatches to commands, prints help and version, and turns errors
/// into one-line messages and exit codes.
package enum CLI {
    /// Every command, in the order `agg --help` lists them.
    static let commands: [any Command.Type] = [
        QuoteCommand.self,
        CompareCommand.self,
        PremiumCommand.self,
        ArbCommand.self,
        StatusCommand.self,
        SearchCommand.self,
        CandlesCommand.self,
        TradesCommand.self,
        BookCommand.self,
        WatchCommand.self,
        RecordCommand.self,
        HistoryCommand.self,
        EventsCommand.self,
        AlertCommand.self,
        ExchangesCommand.self,
        RatesCommand.self,
        ServeCommand.self,
        FavoritesCommand.self,
        ConfigCommand.self,
        CompletionCommand.self,
    ]

    /// Runs `agg` with `arguments` (without the program name) and returns the exit code.
    ///
    /// Standard output is finished (closed) before returning; when a write to it or the close
    /// failed, the output is lost: one line on stderr, and exit code 74 whatever the command
    /// returned.
    package static func run(_ arguments: [String], context: CLIContext) async -> Int32 {
        let status = await dispatch(arguments, context: context)
        guard let failure = context.console.standardOutput.finish() else { return status }
        context.console.printError("agg: cannot write to standard output: \(failure)")
        return ExitCode.outputFailure.rawValue
    }

    /// Runs the command `arguments` name, or help or the version.
    private static func dispatch(_ arguments: [String], context: CLIContext) async -> Int32 {
        let console = context.console
        guard let first = arguments.first else {
            console.print(Help.overview(commands: commands.map { $0.spec }))
            return ExitCode.success.rawValue
        }
        switch first {
        case "--help", "-h", "help":
            // `agg help quote` and `agg --help quote` both show quote's help.
            if arguments.count > 1 {
                guard let command = command(named: arguments[1]) else {
                    return usageError(unknownCommand(arguments[1]), console: console)
                }
                console.print(Help.command(command.spec, registry: context.registry))
                return ExitCode.success.rawValue
            }
            console.print(Help.overview(commands: commands.map { $0.spec }))
            return ExitCode.success.rawValue
        case "--version", "-V", "version":
            console.print("agg \(AggVersion.current)")
            return ExitCode.success.rawValue
        default:
            break
        }
        guard let command = command(named: first) else {
            return usageError(
                first.hasPrefix("-")
                    ? "unknown option '\(first)'; see 'agg --help'" : unknownCommand(first), console: console)
        }
        do throws(AggError) {
            let parsed = try ArgumentParser.parse(Array(arguments.dropFirst()), spec: command.spec)
            if parsed.wantsHelp {
                console.print(Help.command(command.spec, registry: context.registry))
                return ExitCode.success.rawValue
            }
            var context = context
            // Venue files load before the config file, which may name their venues; a bad file
            // is one line and leaves the other venues working, and the run then exits 78.
            let venues = DataVenueLoader.load(
                into: context.registry, shipped: context.shippedVenueFolders,
                user: ConfigurationLoader.path(environment: context.environment).map(DataVenueLoader.userFolder))
            context.registry = venues.registry
            for error in venues.errors { console.printError("agg: \(error.description)") }
            do throws(ConfigurationError) {
                context.configuration = try ConfigurationLoader.load(
                    environment: context.environment, registry: context.registry)
                try ConfigurationLoader.checkEnvironmentURLs(context.environment, registry: context.registry)
                try SettingResolver.checkEnvironment(context.environment, registry: context.registry)
            } catch  where !command.needsConfiguration(parsed) {
                context.configuration = .none
            } catch {
                console.printError("agg: \(error.description)")
                return ExitCode.configuration.rawValue
            }
            for warning in context.configuration.warnings { console.printError("agg: warning: \(warning)") }
            let status = try await command.run(parsed, context: context)
            return venues.errors.isEmpty || status != .success ? status.rawValue : ExitCode.configuration.rawValue
        } catch {
            if error.isUsageError { return usageError(error.description, console: console) }
            console.printError("agg: \(error.description)")
            if case .store = error { return ExitCode.localFailure.rawValue }
            return ExitCode.sourceFailed.rawValue
        }
    }

    /// docs/commands.md: the command reference, generated from the same specs as `--help`.
    package static func commandReference() -> String {
        Help.reference(commands: commands.map { $0.spec })
    }

    static func command(named name: String) -> (any Command.Type)? {
        commands.first { $0.spec.name == name }
    }

    private static func unknownCommand(_ name: String) -> String {
        let names = commands.map { $0.spec.name }
        if let suggestion = Suggestion.closest(to: name, among: names) {
            return "unknown command '\(name)'; did you mean '\(suggestion)'?"
        }
        return "unknown command '\(name)'; commands: \(names.joined(separator: ", "))"
    }

    private static func usageError(_ message: String, console: Console) -> Int32 {
        console.printError("agg: \(message)")
        return ExitCode.usage.rawValue
    }
}
