import FoundationEssentials

/// One rate (units of `quote` per `base`) as several sources give it: the FX sources, and the
/// rates the market implies (USDT/KRW on each Korean venue, USDT taken as one dollar), each set
/// against the median of the FX sources.
public struct RateSources: Sendable, Equatable {
    /// Where a rate comes from.
    public enum Kind: String, Sendable, Equatable {
        /// An FX source (a bank or central bank reference, or an aggregator).
        case fx
        /// A venue's price of a dollar stablecoin.
        case market
    }

    /// One source's rate.
    public struct Entry: Sendable, Equatable {
        /// An FX adapter id, or `upbit USDT/KRW`.
        public var source: String
        public var kind: Kind
        public var rate: Decimal
        public var asOf: Timestamp?
        /// (rate / median − 1) × 100, two decimals; `nil` without a median.
        public var deviationPercent: Decimal?
    }

    public let base: String
    public let quote: String
    /// FX sources first (in the order given), then market rates by venue.
    public let entries: [Entry]
    /// The median of the FX sources' rates.
    public let median: Decimal?

    /// `base`→`quote` from each of `tables` that has it, and from each `market` quote of USDT in
    /// `quote` when `base` is USD.
    public init(base: String, quote: String, tables: [RateTable], market: [Quote] = []) {
        self.base = base
        self.quote = quote
        var entries: [Entry] = tables.compactMap { table in
            guard table.base == base, let rate = base == quote ? 1 : table.rates[quote], rate > 0 else { return nil }
            return Entry(source: table.source, kind: .fx, rate: rate, asOf: table.asOf, deviationPercent: nil)
        }
        let median = PriceComparison.median(entries.map(\.rate))
        if base == Conversion.fxBase {
            entries += market.filter { $0.market == Market(base: "USDT", quote: quote) && $0.last > 0 }
                .sorted { $0.exchange < $1.exchange }
                .map { quote in
                    Entry(
                        source: "\(quote.exchange) \(quote.market)", kind: .market, rate: quote.last,
                        asOf: quote.timestamp, deviationPercent: nil)
                }
        }
        if let median {
            for index in entries.indices {
                entries[index].deviationPercent = PriceComparison.premiumPercent(entries[index].rate, reference: median)
            }
        }
        self.entries = entries
        self.median = median
    }
}

/// Which FX table a premium is computed with, and whether it is fresh enough to be trusted.
public enum FXChoice {
    /// The default age limit: three days, so that weekend ECB rates (Friday's) still serve on Monday.
    public static let defaultMaximumAgeSeconds: Int64 = 3 * 24 * 3600

    /// The moment an FX rate's age is measured from: the newest time among the `quotes` it
    /// converts (the recorded moment for `--offline`), but never later than `now`, the real
    /// clock. One venue whose clock runs ahead (a `ts` in 2100, milliseconds read as seconds)
    /// would otherwise make every rate "too old" and empty the whole board.
    public static func ageReference(quotes: [Quote], now: Timestamp) -> Timestamp {
        guard let newest = quotes.lazy.compactMap(\.timestamp).max() else { return now }
        return min(newest, now)
    }

    /// `named`'s table when given, else the freshest (latest `asOf`; ties by source id) of
    /// `tables` that has `quote`; refused when it is older than `maximumAgeSeconds` at `now`.
    public static func choose(
        from tables: [RateTable], named: String?, quote: String, now: Timestamp, maximumAgeSeconds: Int64
    ) throws(AggError) -> RateTable {
        let usable = tables.filter { $0.rates[quote] != nil || $0.base == quote }
        let chosen: RateTable?
        if let named {
            chosen = usable.first { $0.source == named }
        } else {
            chosen = usable.max { left, right in
                (left.asOf.millisecondsSince1970, right.source) < (right.asOf.millisecondsSince1970, left.source)
            }
        }
        guard let table = chosen else {
            let answered = tables.map(\.source).sorted()
            let which = named.map { "\($0) gave no \(quote) rate" } ?? "no FX source gave a \(quote) rate"
            throw .fxUnavailable(
                which + (answered.isEmpty ? "" : " (answered: \(answered.joined(separator: ", ")))"))
        }
        let age = (now.millisecondsSince1970 - table.asOf.millisecondsSince1970) / 1000
        guard age <= maximumAgeSeconds else {
            let unit = AgeUnit(of: maximumAgeSeconds)
            throw .fxUnavailable(
                "\(table.source)'s rate is from \(table.asOf), \(unit.text(age)) old, older than the "
                    + "\(unit.text(maximumAgeSeconds)) allowed (--max-fx-age)")
        }
        return table
    }

    /// The unit an age limit is told back in: the largest of hours, minutes and seconds that
    /// divides it exactly (`72 h`, `90 min`, `1 s`), so that `--max-fx-age 1s` never reads
    /// `0 h`; the age is told in the same unit, rounded down.
    struct AgeUnit {
        var seconds: Int64
        var name: String

        init(of limit: Int64) {
            if limit > 0, limit % 3600 == 0 {
                (seconds, name) = (3600, "h")
            } else if limit > 0, limit % 60 == 0 {
                (seconds, name) = (60, "min")
            } else {
                (seconds, name) = (1, "s")
            }
        }

        func text(_ value: Int64) -> String { "\(value / seconds) \(name)" }
    }
}
