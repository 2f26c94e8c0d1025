import FoundationEssentials

/// Every coin listed both on local venues (quoted in `currency`, such as KRW) and on global ones
/// (quoted in US dollars or a dollar stablecoin), with each local venue's premium over the global
/// price: the "kimchi premium" board. Pure arithmetic on exact `Decimal`s over tickers already
/// fetched.
///
/// Two bases, side by side, because they often disagree in sign:
/// - **FX**: the global reference in dollars × the FX rate (USD→`currency`), with USDT = USD.
/// - **USDT**: the global reference in dollars × the USDT/`currency` price on the same local
///   venue, so that the tether premium cancels out.
///
/// The global reference of a coin is the median of its global venues' prices in dollars; for a
/// dollar stablecoin (USDT, USDC) it is one US dollar, as for the tether line. A price
/// more than `maximumDeviationPercent` away from the median of all of a coin's prices is most
/// likely another asset under the same ticker: it is marked as an outlier, left out of the
/// reference, and the coin is flagged rather than averaged in silence.
public struct PremiumBoard: Sendable, Equatable {
    /// One venue's price of one coin.
    public struct VenuePrice: Sendable, Equatable {
        public var exchange: String
        public var market: Market
        /// In the market's own quote currency.
        public var last: Decimal
        /// `last` in the board's currency on the FX basis.
        public var lastConverted: Decimal
        /// Over the global reference, FX basis, percent with two decimals; for a global venue its
        /// deviation from the reference.
        public var premiumPercent: Decimal?
        /// Over the global reference, USDT basis (local venues with a USDT market only).
        public var usdtPremiumPercent: Decimal?
        /// 24-hour volume in the board's currency, FX basis, when the venue publishes it.
        public var volumeConverted: Decimal?
        /// Whether the venue quotes in the board's currency.
        public var isLocal: Bool
        /// Whether the price is so far from the others that it is left out of the reference.
        public var isOutlier: Bool
        /// The venue's time of the price (`Quote.timestamp`).
        public var timestamp: Timestamp? = nil
        /// When agg received the price (`Quote.receivedAt`).
        public var receivedAt: Timestamp? = nil

        /// The price's age at `now`, as its quote's (`Quote.age(at:)`).
        public func age(at now: Timestamp) -> QuoteAge? {
            Quote(exchange: exchange, market: market, last: last, timestamp: timestamp, receivedAt: receivedAt)
                .age(at: now)
        }

        /// `premiumPercent` or `usdtPremiumPercent`.
        public func premiumPercent(on basis: Basis) -> Decimal? {
            switch basis {
            case .fx: premiumPercent
            case .usdt: usdtPremiumPercent
            }
        }

        /// The premium on `basis` when it may rank a row or fire an alert: a local venue's, and
        /// not an outlier's (most likely another coin's price).
        public func trustedPremiumPercent(on basis: Basis) -> Decimal? {
            isLocal && !isOutlier ? premiumPercent(on: basis) : nil
        }
    }

    /// The global price premiums are measured against.
    public struct Reference: Sendable, Equatable {
        /// The global venues it is the median of; empty for a dollar stablecoin.
        public var exchanges: [String]
        /// In US dollars (USDT = USD).
        public var dollars: Decimal
        /// In the board's currency on the FX basis.
        public var converted: Decimal
        /// The dollar stablecoin (USDT, USDC) whose reference is one US dollar, as the tether
        /// line measures it; `nil` for a median of global venues.
        public var stablecoin: String? = nil

        /// Words saying how it was made.
        public var method: String {
            if let stablecoin { return "one US dollar (\(stablecoin) = USD)" }
            return "median of \(exchanges.joined(separator: ", ")) in USD (USDT = USD)"
        }
    }

    /// Something a reader should know before trusting a coin's premium.
    public enum Flag: String, Sendable, Equatable, CaseIterable {
        /// Some venue's price is more than the sanity bound away from the others'.
        case priceMismatch
        /// Every global price was an outlier: no reference, no premium.
        case noReference
    }

    /// One coin.
    public struct Row: Sendable, Equatable {
        public var base: String
        /// Local venues first, then global ones, each by exchange id.
        public var venues: [VenuePrice]
        public var reference: Reference?
        /// The local venues' 24-hour volume added up, in the board's currency.
        public var volume: Decimal
        public var flags: [Flag]

        /// The highest FX-basis premium of its local venues that are not outliers.
        public var premiumPercent: Decimal? { premiumPercent(on: .fx) }

        /// The highest premium on `basis` of its local venues that are not outliers: an
        /// outlier is most likely another coin, so its premium is shown and marked but never
        /// ranks the row (nor fires an alert).
        public func premiumPercent(on basis: Basis) -> Decimal? {
            venues.compactMap { $0.trustedPremiumPercent(on: basis) }.max()
        }
    }

    /// The two premiums a local venue has.
    public enum Basis: String, Sendable, CaseIterable {
        /// Over the global reference at the FX rate.
        case fx
        /// Over the global reference at USDT's price on the same venue.
        case usdt
    }

    /// USDT on one local venue against the FX rate.
    public struct TetherPrice: Sendable, Equatable {
        public var exchange: String
        /// USDT in the board's currency.
        public var price: Decimal
        /// (price / FX rate − 1) × 100, two decimals.
        public var premiumPercent: Decimal
    }

    /// How rows can be ordered.
    public enum Order: String, Sendable, CaseIterable {
        /// Highest premium first.
        case premium
        /// Most local volume first.
        case volume
        /// By coin code.
        case symbol
    }

    /// The currency of the local venues, and of every converted figure.
    public let currency: String
    /// USD→`currency`.
    public let fx: RateValue
    public let tether: [TetherPrice]
    /// The median of the local venues' tether premiums.
    public let tetherPremiumPercent: Decimal?
    /// Every coin with at least one local and one global price, by coin code.
    public let rows: [Row]

    /// The quote currencies a global venue's price may be in, in the order one is picked when a
    /// venue lists a coin in several.
    public static let globalQuotes = ["USDT", "USD", "USDC"]
    /// The default sanity bound.
    public static let defaultMaximumDeviationPercent: Decimal = 50

    /// The board of `quotes` (every venue's tickers, any mix) in `currency` at `fx` (USD→`currency`).
    public init(
        currency: String, quotes: [Quote], fx: RateValue,
        maximumDeviationPercent: Decimal = defaultMaximumDeviationPercent
    ) {
        let inputs = Inputs(quotes, currency: currency)
        let tether = Self.tether(inputs.usdt, fx: fx.value)
        self.init(
            currency: currency, fx: fx, tether: tether,
            tetherPremiumPercent: PriceComparison.median(tether.map(\.premiumPercent)),
            rows: inputs.rows(of: inputs.local.keys.sorted(), fx: fx.value, bound: maximumDeviationPercent))
    }

    /// A board of parts already made (`recomputing(_:from:maximumDeviationPercent:)`).
    init(currency: String, fx: RateValue, tether: [TetherPrice], tetherPremiumPercent: Decimal?, rows: [Row]) {
        self.currency = currency
        self.fx = fx
        self.tether = tether
        self.tetherPremiumPercent = tetherPremiumPercent
        self.rows = rows
    }

    /// The tether line of the local venues' USDT prices at `fx`, by exchange.
    static func tether(_ usdt: [String: Decimal], fx: Decimal) -> [TetherPrice] {
        usdt.sorted { $0.key < $1.key }.map { exchange, price in
            TetherPrice(exchange: exchange, price: price, premiumPercent: Self.percent(price, over: fx))
        }
    }

    /// Quotes sorted the way the board reads them: local ones by coin, the global one of each
    /// (coin, venue) in the preferred dollar currency, and each local venue's USDT price.
    struct Inputs {
        var local: [String: [Quote]] = [:]
        var global: [String: [String: Quote]] = [:]
        var usdt: [String: Decimal] = [:]

        init(_ quotes: [Quote], currency: String) {
            for quote in quotes where quote.last > 0 {
                if quote.market.quote == currency {
                    if quote.market.base == "USDT" { usdt[quote.exchange] = quote.last }
                    local[quote.market.base, default: []].append(quote)
                } else if let rank = PremiumBoard.globalQuotes.firstIndex(of: quote.market.quote) {
                    let chosen = global[quote.market.base]?[quote.exchange]
                    let chosenRank = chosen.flatMap { PremiumBoard.globalQuotes.firstIndex(of: $0.market.quote) }
                    if chosenRank.map({ rank < $0 }) ?? true {
                        global[quote.market.base, default: [:]][quote.exchange] = quote
                    }
                }
            }
        }

        /// The rows of `bases` (in that order) that have a local and a global price.
        func rows(of bases: [String], fx: Decimal, bound: Decimal) -> [Row] {
            bases.compactMap { base in
                guard let globalQuotes = global[base], !globalQuotes.isEmpty, let localQuotes = local[base] else {
                    return nil
                }
                return PremiumBoard.row(
                    base: base, local: localQuotes, global: globalQuotes.values.sorted { $0.exchange < $1.exchange },
                    fx: fx, usdt: usdt, bound: bound)
            }
        }
    }

    private static func row(
        base: String, local: [Quote], global: [Quote], fx: Decimal, usdt: [String: Decimal], bound: Decimal
    ) -> Row {
        var venues = local.sorted { $0.exchange < $1.exchange }.map { venuePrice($0, rate: 1, isLocal: true) }
        venues += global.map { venuePrice($0, rate: fx, isLocal: false) }
        var flags: [Flag] = []
        if let median = PriceComparison.median(venues.map(\.lastConverted)), median > 0 {
            for index in venues.indices where abs(percent(venues[index].lastConverted, over: median)) > bound {
                venues[index].isOutlier = true
            }
        }
        if venues.contains(where: \.isOutlier) { flags.append(.priceMismatch) }
        let references = venues.filter { !$0.isLocal && !$0.isOutlier }
        var reference: Reference?
        // A dollar stablecoin is measured against one US dollar, as the tether line is, so that
        // its row and the tether line agree to the cent; any other coin against the median of
        // its global prices.
        let isDollar = Conversion.dollarStablecoins.contains(base)
        if let dollars = isDollar ? 1 : PriceComparison.median(references.map(\.last)) {
            let converted = dollars * fx
            reference = Reference(
                exchanges: isDollar ? [] : references.map(\.exchange), dollars: dollars, converted: converted,
                stablecoin: isDollar ? base : nil)
            for index in venues.indices {
                venues[index].premiumPercent = percent(venues[index].lastConverted, over: converted)
                if venues[index].isLocal, let tetherPrice = usdt[venues[index].exchange] {
                    venues[index].usdtPremiumPercent = percent(venues[index].last, over: dollars * tetherPrice)
                }
            }
        } else {
            flags.append(.noReference)
        }
        let volume = venues.filter(\.isLocal).compactMap(\.volumeConverted).reduce(0, +)
        return Row(base: base, venues: venues, reference: reference, volume: volume, flags: flags)
    }

    private static func venuePrice(_ quote: Quote, rate: Decimal, isLocal: Bool) -> VenuePrice {
        let volume = quote.quoteVolume ?? quote.baseVolume.map { $0 * quote.last }
        return VenuePrice(
            exchange: quote.exchange, market: quote.market, last: quote.last, lastConverted: quote.last * rate,
            premiumPercent: nil, usdtPremiumPercent: nil, volumeConverted: volume.map { $0 * rate },
            isLocal: isLocal, isOutlier: false, timestamp: quote.timestamp, receivedAt: quote.receivedAt)
    }

    /// (value / base − 1) × 100, rounded half away from zero to two decimals.
    static func percent(_ value: Decimal, over base: Decimal) -> Decimal {
        PriceComparison.premiumPercent(value, reference: base)
    }

    /// The rows in `order` (by premium: on `basis`); ties and coins without a premium go by coin
    /// code, the latter last.
    public func rows(in order: Order, basis: Basis = .fx) -> [Row] {
        switch order {
        case .symbol:
            return rows
        case .volume:
            return rows.sorted { ($0.volume, $1.base) > ($1.volume, $0.base) }
        case .premium:
            return rows.sorted { left, right in
                switch (left.premiumPercent(on: basis), right.premiumPercent(on: basis)) {
                case (let l?, let r?): (l, right.base) > (r, left.base)
                case (.some, nil): true
                case (nil, .some): false
                case (nil, nil): left.base < right.base
                }
            }
        }
    }
}
