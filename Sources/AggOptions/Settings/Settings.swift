import AggCore
import AggJSON

/// Every setting agg has, each declared once (see `Setting`). Commands list these among their
/// options; `SettingResolver` finds their values; help, `agg config show` and
/// docs/configuration.md's table are made from `all`.
package enum Settings {
    /// The longest `--timeout` accepted, in seconds.
    static let maximumTimeout: Double = 600

    /// The default `--max-stale`: ten minutes.
    static let defaultMaxStale: Int64 = 600

    /// `--exchange`: the venues asked.
    package static let exchanges = Setting(
        Option<[String]>.venues("exchange", short: "e", help: ""),
        help: "Ask only these venues (see `agg exchanges`)", key: "exchanges", variable: "AGG_EXCHANGES",
        builtIn: DecidedPerRun("every venue") { registry in .array(registry.ids.map { .string($0) }) },
        json: { .array($0.map { .string($0) }) }, check: knownVenues)

    /// `--quote`: the quote currency of bare symbols.
    package static let quote = Setting(
        Option<String>("quote", short: "q", value: "CUR", help: "", parser: .assetCode),
        help: "Quote currency for bare symbols", key: "quote", variable: "AGG_QUOTE",
        builtIn: DecidedPerRun("each venue's home currency"), json: { .string($0) })

    /// `--palette`: the up/down colours.
    package static let palette = Setting(
        Option<TextStyle.Palette>("palette", value: "NAME", help: "", parser: .choice()),
        help: "Up/down colours: standard (green up, red down) or kr (red up, blue down)", key: "palette",
        variable: "AGG_PALETTE", builtIn: .standard, shown: \.rawValue, json: { .string($0.rawValue) })

    /// `--timeout`: how long a venue may take.
    package static let timeout = Setting(
        Option<Double>(
            "timeout", value: "SECONDS", help: "",
            parser: .seconds(
                in: 0...maximumTimeout,
                expected: "a number of seconds above 0 and at most \(Int(maximumTimeout))")),
        help: "Give up on a venue after this long, such as 10s or 1m", key: "timeout", variable: "AGG_TIMEOUT",
        builtIn: HTTPTimeouts.standard.total, shown: ValueParser<Double>.durationText,
        json: { .number($0 == $0.rounded() ? String(Int($0)) : String($0)) })

    /// `--format`: the shape of standard output.
    package static let format = Setting(
        Option<OutputFormat>("format", short: "f", value: "FORMAT", help: "", parser: .choice()),
        help: "Output as table, json or csv", key: "format", variable: "AGG_FORMAT",
        builtIn: DecidedPerRun("table on a terminal, json otherwise"), json: { .string($0.rawValue) })

    /// `agg quote --max-stale`: the oldest cached quote shown for a venue that fails.
    package static let maxStale = Setting(
        Option<Int64>(
            "max-stale", value: "DURATION", help: "",
            parser: .duration(expected: "seconds (600) or a duration such as 30s, 10m or 1h")),
        help: "Show a venue that fails by its cached quote up to this old (0 turns it off)", key: "maxStale",
        variable: "AGG_MAX_STALE", builtIn: defaultMaxStale,
        shown: { ValueParser<Double>.durationText(Double($0)) }, json: { .number(String($0)) })

    /// The default `--stale-after`: thirty seconds (`QuoteAge.defaultStaleAfter`).
    static let defaultStaleAfter: Int64 = 30

    /// `--stale-after`: how old a quote may be before it is shown stale.
    package static let staleAfter = Setting(
        Option<Int64>(
            "stale-after", value: "DURATION", help: "",
            parser: .duration(expected: "seconds (30) or a duration such as 30s, 10m or 1h")),
        help: "Mark a quote older than this stale (its venue's time, else when agg received it)",
        key: "staleAfter", variable: "AGG_STALE_AFTER", builtIn: defaultStaleAfter,
        shown: { ValueParser<Double>.durationText(Double($0)) }, json: { .number(String($0)) })

    /// `agg record|history --store`: where the history is. Secret: a URL may hold a password,
    /// which every description of the location hides.
    package static let store = Setting(
        Option<HistoryStoreLocation>(
            "store", value: "URL|PATH", help: "",
            parser: ValueParser(expected: "a PostgreSQL URL or a SQLite path") { text throws(AggError) in
                try HistoryStoreLocation(text)
            }),
        help: "Where the history is: postgres://user@host:5432/db or sqlite:PATH", key: "store",
        variable: "AGG_STORE", builtIn: .sqlite(path: nil), shown: { _ in "agg's database" }, isSecret: true,
        json: { $0 == .sqlite(path: nil) ? .null : .string($0.description) })

    /// `--notify`: where alerts are sent (docs/alerts.md). Shown redacted everywhere: a webhook's
    /// path may be its secret.
    package static let notify = Setting(
        Option<[String]>(
            "notify", value: "URL", help: "",
            parser: ValueParser(expected: NotifyDestination.grammar) { text throws(AggError) in
                let destinations = NotifyDestination.split(text)
                for destination in destinations { _ = try NotifyDestination.parse(destination) }
                return destinations
            }, combine: +),
        help:
            "Send each alert to https://HOST/PATH (a webhook), telegram://CHAT_ID or discord://WEBHOOK_ID; repeatable",
        key: "notify", builtIn: [], shown: { _ in "none" }, isSecret: true,
        json: { texts in
            .array(texts.map { text in .string((try? NotifyDestination.parse(text))?.description ?? "***") })
        })

    /// `--notify-secret-file`: the key of webhooks' `X-Agg-Signature`, read from a file.
    package static let notifySecretFile = Setting(
        Option<String>(
            "notify-secret-file", value: "PATH", help: "",
            parser: ValueParser(expected: "a file path") { $0.isEmpty ? nil : $0 }),
        help: "Sign each webhook's body with X-Agg-Signature: sha256=HMAC-SHA256 keyed by this file's content",
        key: "notifySecretFile", builtIn: DecidedPerRun("no signature"), json: { .string($0) })

    /// `--offline`: answer from the fixtures.
    package static let offline = Setting(
        flag: Flag("offline", help: "Answer from Fixtures/: recorded answers and sample data (also AGG_OFFLINE=1)."),
        variable: "AGG_OFFLINE", words: ["1", "true", "yes"])

    /// `--in` of `compare` and `premium`: the currency they work in; one default for both.
    package static func localCurrency(help: String) -> Setting<String, String> {
        Setting(
            Option("in", value: "CUR", help: "", parser: .currency), help: help, builtIn: "KRW", shown: { $0 })
    }

    /// A key of the config file: a setting's, or one of the two maps by venue.
    package enum FileEntry: Sendable {
        case setting(any SettingDescription)
        /// `baseURLs`: each venue's base URL (`AGG_<ID>_URL` overrides it).
        case baseURLs
        /// `venueSettings`: each venue's own settings (`AdapterDescriptor.settings`).
        case venueSettings
    }

    /// The config file's keys, in the order `agg config show` prints them.
    package static let file: [FileEntry] = [
        .setting(exchanges), .setting(quote), .setting(palette), .setting(timeout), .baseURLs, .setting(format),
        .setting(maxStale), .setting(staleAfter), .setting(store), .venueSettings, .setting(notify),
        .setting(notifySecretFile),
    ]

    /// Every setting of the whole program: those of the config file, then `--offline`. A
    /// command's own options with a default (`--limit`) are settings too, declared beside the
    /// command, which only their flag sets.
    package static let all: [any SettingDescription] =
        file.compactMap { entry in
            if case .setting(let setting) = entry { return setting }
            return nil
        } + [offline]

    /// The venue ids of a value from the environment or the file, each registered, once each.
    @Sendable static func knownVenues(_ ids: [String], registry: AdapterRegistry) -> Result<[String], SettingProblem> {
        var known: [String] = []
        for id in ids {
            guard registry.descriptor(id: id) != nil else {
                return .failure(
                    SettingProblem(message: "unknown exchange '\(id)'; known: \(registry.ids.joined(separator: ", "))"))
            }
            if !known.contains(id) { known.append(id) }
        }
        return .success(known)
    }
}
