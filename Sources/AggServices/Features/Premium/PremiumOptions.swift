import AggCore
import AggOptions
import FoundationEssentials

/// The options of `agg premium` (its spec lists them); `PremiumRequest` reads them.
extension PremiumCommand {
    static let maximumTop = 10_000

    package static let currency = Settings.localCurrency(help: "The local currency")
    static let basis = Setting(
        Option<PremiumRendering.Basis>("basis", value: "BASIS", help: "", parser: .choice()),
        help: "Show premiums on the FX basis, the USDT basis, or both", builtIn: .both, shown: \.rawValue)
    static let sort = Setting(
        Option<PremiumBoard.Order>("sort", value: "ORDER", help: "", parser: .choice()),
        help: "Order coins by premium, volume or symbol", builtIn: .premium, shown: \.rawValue)
    static let minVolume = Option<Decimal>(
        "min-volume", value: "AMOUNT", help: "Hide coins whose 24 h local volume is below AMOUNT.",
        parser: .amount(expected: "an amount such as 1000000000"))
    static let watch = Flag("watch", short: "w", help: "Refresh the board until Ctrl-C (or --count refreshes).")
    /// Seconds between `--watch` refreshes unless a venue's rate limit needs longer.
    static let defaultInterval: Double = 10
    static let interval = Setting(
        Option<Double>(
            "interval", short: "i", value: "SECONDS", help: "",
            parser: .seconds(in: 1...86_400, expected: "seconds, such as 10 or 1m")),
        help: "With --watch: seconds between refreshes, at least 1 and within every venue's rate limit",
        builtIn: DecidedPerRun("\(Int(defaultInterval))s, or longer when a venue's rate limit needs it"))
    static let count = Option<Int>(
        "count", short: "c", value: "N", help: "With --watch: stop after N refreshes.",
        parser: .wholeNumber(in: 1...Int.max, expected: "a whole number of refreshes, 1 or more"))
    static let top = Option<Int>(
        "top", short: "n", value: "N",
        help: "Show at most N coins; with --notional, show them all and price the N with the most volume (30).",
        parser: .wholeNumber(in: 1...maximumTop))
    static let notional = Option<Decimal>(
        "notional", value: "AMOUNT",
        help: "Price the top coins both ways at this order size, in --in's currency: 1000000, 2.5K, 10M or 1B.",
        parser: NotionalText.parser)
    static let net = Flag(
        "net", help: "With --notional: subtract both taker fees and the withdrawal fee of the cheapest open network.")
}
