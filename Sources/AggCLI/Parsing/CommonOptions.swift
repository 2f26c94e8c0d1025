import AggCore

/// Options that several commands share, spelled once. A short name means the same option in
/// every command (`-i` is always `--interval`, `-n` always "at most N rows").
public enum CommonOptions {
    public static let help = Flag("help", short: "h", help: "Show help for this command.")
    public static let format = Option<OutputFormat>(
        "format", short: "f", value: "FORMAT",
        help: "Output as table, json or csv (table on a terminal, json otherwise).", parser: .choice())
    public static let exchange = Option<[String]>.venues(
        "exchange", short: "e", help: "Ask only these venues (see `agg exchanges`).")
    /// One venue, for commands that ask a single venue (candles, trades, book).
    public static let singleExchange = Option<[String]>(
        "exchange", short: "e", value: "ID",
        help: "The venue to ask (default: the first suitable one in the config file).",
        completion: .exchangeIDs,
        parser: .list(of: .venueID, expected: "a venue id, such as bithumb"), combine: +)
    public static let quote = Option<String>(
        "quote", short: "q", value: "CUR",
        help: "Quote currency for bare symbols (default: config file, else each venue's home currency).",
        parser: .assetCode)
    public static let timeout = Option<Double>(
        "timeout", value: "SECONDS", help: "Give up on a venue after this long (default 10; 10s, 1m).",
        parser: .seconds(
            in: 0...NetworkOptions.maximumTimeout,
            expected: "a number of seconds above 0 and at most \(Int(NetworkOptions.maximumTimeout))"))
    public static let offline = Flag(
        "offline", help: "Answer from Fixtures/: recorded answers and sample data (also AGG_OFFLINE=1).")
    public static let color = Option<ColorChoice>(
        "color", value: "WHEN", help: "Colour output: auto, always or never.", parser: .choice())
    public static let noColor = Flag("no-color", help: "Never colour output (as NO_COLOR does).")
    public static let palette = Option<TextStyle.Palette>(
        "palette", value: "NAME",
        help: "Up/down colours: standard (green up, red down) or kr (red up, blue down).", parser: .choice())
    /// `--refresh`: ask the FX source even when the stored snapshot is the latest it has.
    public static let refresh = Flag(
        "refresh", help: "Ask the FX source even when today's stored rates are still current.")
    /// `--fx`: the FX source a premium is computed with (`premium`, `compare`); see `FXOptions`.
    public static let fxSource = Option<String>(
        "fx", value: "SOURCE",
        help: "The FX source premiums are computed with (default: the freshest that answered).",
        completion: .exchangeIDs, parser: .venueID)
    /// `--max-fx-age`: the oldest FX rate a premium may be computed with (`premium`, `compare`).
    public static let maxFXAge = Option<Int64>(
        "max-fx-age", value: "DURATION",
        help: "Refuse an FX rate older than this (default 3d, so that Friday's ECB rate serves on Monday).",
        parser: .duration(minimum: 1, expected: "a duration such as 3d, 12h or 3600"))
    /// `--in`: the currency a command converts into or compares in.
    static func currency(_ help: String) -> Option<String> {
        Option("in", value: "CUR", help: help, parser: .currency)
    }

    /// The options every network command takes.
    public static let network: [any OptionDeclaration] = [format, timeout, offline, color, noColor, palette]
}

/// `--color`: when to colour output.
public enum ColorChoice: String, Sendable, CaseIterable {
    case auto, always, never
}
