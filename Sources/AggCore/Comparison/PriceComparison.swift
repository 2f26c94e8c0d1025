import FoundationEssentials

/// One coin's price on several venues, converted into one currency, with each venue's premium
/// over a reference price. Pure arithmetic on exact `Decimal`s: fetching is the caller's job.
///
/// The reference is the median of the converted prices of the venues not quoted in the target
/// currency (for KRW: the global venues, so that premiums are the "kimchi premium"), and there is
/// none when none of those could be converted; when every venue is quoted in the target
/// currency, the median of all. For a dollar stablecoin (USDT,
/// USDC) the reference is the US dollar itself at the FX rate (USDT = USD), so that premiums
/// are the "tether premium": a median of the venues would compare them with themselves. A
/// venue's premium is (converted / reference − 1) × 100, rounded to two decimals.
public struct PriceComparison: Sendable, Equatable {
    /// A venue's price in its own quote currency.
    public struct Price: Sendable, Equatable {
        public var exchange: String
        public var market: Market
        public var last: Decimal

        public init(exchange: String, market: Market, last: Decimal) {
            self.exchange = exchange
            self.market = market
            self.last = last
        }
    }

    /// A venue's price converted, or the inputs that were missing to convert it.
    public struct Row: Sendable, Equatable {
        public var price: Price
        public var conversion: Conversion
        /// The factor used; `nil` when an input is missing.
        public var rate: Decimal?
        /// `last × rate`; `nil` when an input is missing.
        public var converted: Decimal?
        /// Percent over the reference, two decimals; `nil` without a converted price or reference.
        public var premiumPercent: Decimal?
        /// The inputs that were not available, sorted.
        public var missing: [RateInput]
        /// Every input that could not be used, missing or not above zero, sorted by input.
        public var problems: [Conversion.Problem]
    }

    /// The price premiums are measured against.
    public struct Reference: Sendable, Equatable {
        /// Words saying which venues it is the median of.
        public var method: String
        public var price: Decimal
        /// The venues it was computed from.
        public var exchanges: [String]
    }

    /// A rate used, as a line of output: `USD→KRW 1442.35 from exchangerate`.
    public struct RateLine: Sendable, Equatable {
        public var from: String
        public var to: String
        public var rate: Decimal
        public var source: String
        public var asOf: Timestamp?

        public init(from: String, to: String, rate: Decimal, source: String, asOf: Timestamp?) {
            self.from = from
            self.to = to
            self.rate = rate
            self.source = source
            self.asOf = asOf
        }
    }

    /// The source named for a stablecoin valued as one dollar.
    public static let assumedSource = "assumed equal to USD"

    /// The target currency.
    public let currency: String
    /// One row per price, in the order given.
    public let rows: [Row]
    /// `nil` when no price could be converted, or the FX rate a stablecoin's reference needs is
    /// missing (`referenceProblems` says why).
    public let reference: Reference?
    /// Why the reference could not be had, for a stablecoin compared with the dollar; empty
    /// otherwise.
    public let referenceProblems: [Conversion.Problem]
    /// The rates the converted rows used: FX rates first (by currency), then USDT at the
    /// market, then stablecoins assumed equal to the dollar.
    public let rateLines: [RateLine]

    /// Converts `prices` of `coin` (by default the prices' base) into `currency` with `values`,
    /// valuing USDT as `stablecoins` says.
    public init(
        coin: String? = nil, currency: String, prices: [Price], stablecoins: StablecoinValuation,
        values: [RateInput: RateValue]
    ) {
        self.currency = currency
        var rows = prices.map { price in
            let conversion = Conversion(from: price.market.quote, to: currency, stablecoins: stablecoins)
            return Row(
                price: price, conversion: conversion, rate: conversion.rate(values),
                converted: conversion.convert(price.last, values), premiumPercent: nil,
                missing: conversion.missing(in: values), problems: conversion.problems(in: values))
        }
        let converted = rows.filter { $0.converted != nil }
        let name = coin ?? prices.first?.market.base ?? ""
        let dollar = Self.dollarReference(coin: name, currency: currency)
        var referenceProblems: [Conversion.Problem] = []
        if let dollar {
            referenceProblems = dollar.problems(in: values)
            let method =
                currency == Conversion.fxBase
                ? "one US dollar (\(name) = USD)" : "the \(Conversion.fxBase)→\(currency) rate (\(name) = USD)"
            reference =
                converted.isEmpty
                ? nil : dollar.rate(values).map { Reference(method: method, price: $0, exchanges: []) }
        } else {
            // The venues quoted outside the target currency make the reference whenever there are
            // any, converted or not: when none of them could be converted (every FX source down),
            // there is no reference, rather than the local venues' median and their premium over
            // themselves.
            let quotedElsewhere = rows.contains { $0.price.market.quote != currency }
            let foreign = converted.filter { $0.price.market.quote != currency }
            let basis = quotedElsewhere ? foreign : converted
            reference = Self.median(basis.compactMap(\.converted)).map { median in
                Reference(
                    method: foreign.isEmpty ? "median of all venues" : "median of venues not quoted in \(currency)",
                    price: median, exchanges: basis.map(\.price.exchange))
            }
        }
        if let price = reference?.price, price != 0 {
            for index in rows.indices {
                rows[index].premiumPercent = rows[index].converted.map { Self.premiumPercent($0, reference: price) }
            }
        }
        self.rows = rows
        self.referenceProblems = referenceProblems
        rateLines = Self.rateLines(
            rows: converted, reference: reference == nil ? nil : dollar, currency: currency, values: values)
    }

    /// For a dollar stablecoin, the conversion of one US dollar into `currency`: its value is
    /// the reference. `nil` for any other coin.
    public static func dollarReference(coin: String, currency: String) -> Conversion? {
        guard Conversion.dollarStablecoins.contains(coin) else { return nil }
        return Conversion(from: Conversion.fxBase, to: currency, stablecoins: .assume)
    }

    /// Every input comparing `coin` quoted in `quoteCurrencies` in `currency` needs: the
    /// conversions, and for a dollar stablecoin its reference.
    public static func inputs(
        coin: String? = nil, currency: String, quoteCurrencies: some Sequence<String>,
        stablecoins: StablecoinValuation
    ) -> Set<RateInput> {
        let reference = coin.flatMap { dollarReference(coin: $0, currency: currency) }?.inputs ?? []
        return reference.union(
            quoteCurrencies.flatMap {
                Conversion(from: $0, to: currency, stablecoins: stablecoins).inputs
            })
    }

    /// The median: the middle value, or the mean of the two middle values of an even count.
    public static func median(_ values: [Decimal]) -> Decimal? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        if sorted.count % 2 == 1 { return sorted[middle] }
        return (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// (converted / reference − 1) × 100, rounded half away from zero to two decimals.
    public static func premiumPercent(_ converted: Decimal, reference: Decimal) -> Decimal {
        DecimalRounding.rounded((converted / reference - 1) * 100, places: 2)
    }

    private static func rateLines(
        rows: [Row], reference: Conversion?, currency: String, values: [RateInput: RateValue]
    )
        -> [RateLine]
    {
        let used = Set(rows.flatMap { $0.conversion.inputs } + (reference?.inputs ?? [])).sorted()
        var lines: [RateLine] = used.compactMap { input in
            guard let value = values[input] else { return nil }
            switch input {
            case .fx(let to):
                return RateLine(
                    from: Conversion.fxBase, to: to, rate: value.value, source: value.source, asOf: value.asOf)
            case .usdtInKRW:
                return RateLine(from: "USDT", to: "KRW", rate: value.value, source: value.source, asOf: value.asOf)
            }
        }
        let assumed = rows.filter { $0.conversion.assumesDollarStablecoin }
        for stablecoin in Set(assumed.map(\.conversion.from)).sorted() {
            guard let row = assumed.first(where: { $0.conversion.from == stablecoin }), let rate = row.rate
            else { continue }
            lines.append(RateLine(from: stablecoin, to: currency, rate: rate, source: assumedSource, asOf: nil))
        }
        return lines
    }
}
