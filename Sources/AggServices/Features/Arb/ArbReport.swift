import AggCore
import FoundationEssentials

/// Something the route could not use, or that a reader must know, in one line.
package struct ArbProblem: Sendable, Equatable {
    /// What kind: `book`, `crossedBook`, `takerFee`, `fx`, `noRoute`, `unknownFee`,
    /// `unknownStatus`, `depth`, `levels`.
    package var kind: String
    /// The venue it is about, when one.
    package var exchange: String?
    package var message: String

    package init(_ kind: String, exchange: String? = nil, _ message: String) {
        self.kind = kind
        self.exchange = exchange
        self.message = message
    }
}

/// One leg's venue, market, order book time and taker fee.
package struct ArbLeg: Sendable, Equatable {
    package var exchange: String
    package var market: Market
    /// The book's time: the venue's, else when it was asked.
    package var asOf: Timestamp?
    /// The taker fee charged and where it comes from; `nil` when none is known.
    package var fee: TakerFeeLookup.Choice?

    package init(exchange: String, market: Market, asOf: Timestamp?, fee: TakerFeeLookup.Choice?) {
        self.exchange = exchange
        self.market = market
        self.asOf = asOf
        self.fee = fee
    }
}

/// What `agg arb` found: the legs, the network chosen, the route walked at the notional (in the
/// buying venue's currency) and the net and break-even in the notional's currency.
package struct ArbReport: Sendable, Equatable {
    package var coin: String
    /// The notional asked, in `currency`.
    package var notional: Decimal
    package var currency: String
    package var buy: ArbLeg
    package var sell: ArbLeg
    /// The network the coin travels on, `nil` when there is none.
    package var transfer: TransferCandidate?
    /// The buy alone, when the selling side or the transfer leaves no whole route: what the
    /// notional buys on the asks and its fee.
    package var buyFill: BookFill?
    package var buyFeeAmount: Decimal?
    /// The whole route, in the buying venue's currency.
    package var route: ArbitrageRoute?
    /// One unit of the selling currency in the buying currency.
    package var rate: Decimal?
    /// The rate inputs the conversions read, in input order.
    package var rates: [RateValue]
    /// `route.net` in `currency`.
    package var net: Decimal?
    /// `route.netPercent`, rounded half away from zero to two decimals.
    package var netPercent: Decimal?
    /// The smallest notional with a net of zero or more, in `currency`; `nil` when none.
    package var breakEvenNotional: Decimal?
    /// What stopped the route (the exit code is 1 when there is one).
    package var problems: [ArbProblem]
    /// What a reader must know about a route that was priced (unknown statuses, a thin book).
    package var warnings: [ArbProblem]

    /// Whether the net could not be priced.
    package var failed: Bool { net == nil }
}
