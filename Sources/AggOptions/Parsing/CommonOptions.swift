import AggCore

/// Options that several commands share, spelled once. A short name means the same option in
/// every command (`-i` is always `--interval`, `-n` always "at most N rows").
package enum CommonOptions {
    package static let help = Flag("help", short: "h", help: "Show help for this command.")
    package static let format = Settings.format
    package static let exchange = Settings.exchanges
    /// One venue, for commands that ask a single venue (candles, trades, book).
    package static let singleExchange = Setting(
        Option<[String]>(
            "exchange", short: "e", value: "ID", help: "", completion: .exchangeIDs,
            parser: .list(of: .venueID, expected: "a venue id, such as bithumb"), combine: +),
        help: "The venue to ask", builtIn: DecidedPerRun("the first suitable one of the exchanges setting"))
    package static let quote = Settings.quote
    package static let timeout = Settings.timeout
    package static let offline = Settings.offline
    package static let color = Option<ColorChoice>(
        "color", value: "WHEN", help: "Colour output: auto, always or never.", parser: .choice())
    package static let noColor = Flag("no-color", help: "Never colour output (as NO_COLOR does).")
    package static let palette = Settings.palette
    /// `--refresh`: ask the FX source even when the stored snapshot is the latest it has.
    package static let refresh = Flag(
        "refresh", help: "Ask the FX source even when today's stored rates are still current.")
    /// `--fx`: the FX source a premium is computed with (`premium`, `compare`); see `FXOptions`.
    package static let fxSource = Setting(
        Option<String>("fx", value: "SOURCE", help: "", completion: .exchangeIDs, parser: .venueID),
        help: "The FX source premiums are computed with", builtIn: DecidedPerRun("the freshest that answered"))
    /// `--max-fx-age`: the oldest FX rate a premium may be computed with (`premium`, `compare`).
    package static let maxFXAge = Setting(
        Option<Int64>(
            "max-fx-age", value: "DURATION", help: "",
            parser: .duration(minimum: 1, expected: "a duration such as 3d, 12h or 3600")),
        help: "Refuse an FX rate older than this, so that Friday's ECB rate serves on Monday",
        builtIn: FXChoice.defaultMaximumAgeSeconds, shown: { ValueParser<Double>.durationText(Double($0)) })

    /// The options every network command takes.
    package static let network: [any OptionDeclaration] = [format, timeout, offline, color, noColor, palette]
}

/// `--color`: when to colour output.
package enum ColorChoice: String, Sendable, CaseIterable {
    case auto, always, never
}
