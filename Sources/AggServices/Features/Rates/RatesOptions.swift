import AggCore
import AggOptions
import FoundationEssentials

/// The options of `agg rates` (its spec lists them); `RatesRequest` reads them.
extension RatesCommand {
    /// The FX source used when `--source` is not given.
    static let defaultSource = RatesService.defaultSource
    /// How many snapshots of each base are kept when `--keep` is not given: today and the day before.
    static let defaultKeep = RatesService.defaultKeep
    /// The most snapshots `--keep` accepts.
    static let maximumKeep = 1000

    /// The one currency `--source all` compares when `--to` is not given.
    static let comparedCurrency = "KRW"

    static let to = Setting(
        Option<[String]>(
            "to", short: "t", value: "CODE[,CODE...]", help: "",
            parser: .list(of: .currency, expected: "currency codes such as USD,JPY"), combine: +),
        help: "Only these currencies",
        builtIn: DecidedPerRun("every currency; \(comparedCurrency) with --source all"))
    static let threshold = Setting(
        Option<Decimal>(
            "threshold", value: "X", help: "", parser: .amount(expected: "a non-negative decimal such as 0.01")),
        help: "Smallest change marked up or down, in units of each currency",
        builtIn: RateComparison.defaultThreshold, shown: { "\($0)" })
    static let keep = Setting(
        Option<Int>("keep", value: "N", help: "", parser: .wholeNumber(in: 1...maximumKeep)),
        help: "Snapshots kept per source and base currency", builtIn: defaultKeep, shown: { "\($0)" })
    static let source = Setting(
        Option<String>("source", value: "ID", help: "", completion: .exchangeIDs, parser: .venueID),
        help:
            "The FX source: exchangerate, frankfurter, dunamu (see `agg exchanges`), or all:"
            + " one --to rate from every source",
        builtIn: DecidedPerRun("\(defaultSource), else the first FX source registered"))
}
