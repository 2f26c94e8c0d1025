import FoundationEssentials

/// What one arbitrage route is made of: buy the coin on one venue's asks, withdraw it, sell it
/// on another venue's bids, and count what comes back in the buying venue's currency.
///
/// Every amount is exact `Decimal` arithmetic; the only divisions are a partial level's coin
/// (`value / price`), a percentage fee's inverse, and the break-even point inside one linear
/// piece, each to Decimal's 38 digits.
public struct ArbitrageInputs: Sendable, Equatable {
    /// The buying venue's asks, priced in its currency.
    public var asks: BookSide
    /// The selling venue's bids, priced in its currency.
    public var bids: BookSide
    public var buyFee: TakerFee
    public var sellFee: TakerFee
    /// The withdrawal fee of the network the coin travels on.
    public var withdrawal: WithdrawalFee
    /// One unit of the selling venue's currency in the buying venue's (1 for the same currency).
    public var rate: Decimal

    public init(
        asks: BookSide, bids: BookSide, buyFee: TakerFee, sellFee: TakerFee, withdrawal: WithdrawalFee,
        rate: Decimal
    ) {
        self.asks = asks
        self.bids = bids
        self.buyFee = buyFee
        self.sellFee = sellFee
        self.withdrawal = withdrawal
        self.rate = rate
    }
}

/// One route walked at one size.
public struct ArbitrageRoute: Sendable, Equatable {
    /// The order size asked, in the buying venue's currency.
    public var notional: Decimal
    /// The buy on the asks: `value` is the order's size as filled.
    public var buy: BookFill
    /// The buy's taker fee: in the buying currency (`TakerFee.Charge.quoteCurrency`) or in the
    /// coin.
    public var buyFee: Decimal
    /// What the buy cost in all, fee included, in the buying currency.
    public var cost: Decimal
    /// The coin withdrawn: what the buy left after a fee taken in the coin.
    public var withdrawn: Decimal
    /// The withdrawal fee, in the coin.
    public var transferFee: Decimal
    /// The sale on the bids, of the coin that arrived.
    public var sell: BookFill
    /// The sale's taker fee, in the selling currency.
    public var sellFee: Decimal
    /// What the sale brought after its fee, in the buying currency.
    public var received: Decimal
    /// `received - cost`.
    public var net: Decimal
    /// `net` in percent of `cost`; `nil` when nothing filled.
    public var netPercent: Decimal?
    /// Whether the books could not carry the whole notional (`buy.value` says what they could).
    public var depthLimited: Bool
}

extension ArbitrageInputs {
    /// The route at `notional` (an order size in the buying currency), or at the largest size
    /// both books can carry when that is less (`depthLimited`).
    public func route(notional: Decimal) -> ArbitrageRoute {
        let wanted = asks.fill(value: notional)
        let largest = largestPurchase
        let amount = DecimalOrder.isLess(largest, wanted.amount) ? largest : wanted.amount
        var route = route(buying: amount)
        route.notional = notional
        // Not `route.buy.value < notional`: a partial level's coin is a 38-digit quotient, and
        // buying it back at the level's price can come to a hair under the notional.
        route.depthLimited = !wanted.complete || DecimalOrder.isLess(amount, wanted.amount)
        return route
    }

    /// The smallest order size at which the route breaks even (`net >= 0`), in the buying
    /// currency: 0 when any size gains, `nil` when no size the books can carry does.
    ///
    /// `net` is piecewise linear in the coin bought: its pieces end where the buy moves to the
    /// next ask level, where the withdrawal fee changes formula or lets something arrive, and
    /// where the sale moves to the next bid level. The break-even point is found in the first
    /// piece where `net` reaches zero, by solving that piece's line.
    public func breakEvenNotional() -> Decimal? {
        let points = breakPoints
        guard let first = points.first else { return nil }
        var previous = first
        var previousNet = net(buying: first)
        if !ValueBounds.isBelowZero(previousNet) { return 0 }
        for point in points.dropFirst() {
            let pointNet = net(buying: point)
            if !ValueBounds.isBelowZero(pointNet) {
                let amount = previous + (-previousNet) * (point - previous) / (pointNet - previousNet)
                return asks.fill(amount: amount).value
            }
            previous = point
            previousNet = pointNet
        }
        return nil
    }

    // MARK: The route as a function of the coin bought

    /// The most coin the route can carry: all the asks hold, or what makes the arriving coin
    /// equal all the bids hold.
    var largestPurchase: Decimal {
        let askTotal = asks.totalAmount
        let bidTotal = bids.totalAmount
        guard ValueBounds.isAboveZero(bidTotal) else { return 0 }
        let carried = bought(forHeld: withdrawal.withdrawn(forArriving: bidTotal))
        return DecimalOrder.isLess(carried, askTotal) ? carried : askTotal
    }

    /// The coin held after the buy's fee when `amount` is bought.
    func held(buying amount: Decimal) -> Decimal {
        buyFee.buyCharge == .coin
            ? DecimalArithmetic.product(amount, DecimalArithmetic.difference(1, buyFee.rate)) : amount
    }

    /// The inverse of `held(buying:)`.
    func bought(forHeld held: Decimal) -> Decimal {
        buyFee.buyCharge == .coin ? held / (1 - buyFee.rate) : held
    }

    func route(buying amount: Decimal) -> ArbitrageRoute {
        route(buying: amount, percent: true)
    }

    /// The route when `amount` is bought; without `percent` its `netPercent` is left `nil` (the
    /// break-even asks only the net, at every break point, and the percent is a division).
    func route(buying amount: Decimal, percent: Bool) -> ArbitrageRoute {
        let buy = asks.fill(amount: amount)
        let buyFeeAmount: Decimal
        let cost: Decimal
        switch buyFee.buyCharge {
        case .quoteCurrency:
            buyFeeAmount = DecimalArithmetic.product(buy.value, buyFee.rate)
            cost = DecimalArithmetic.sum(buy.value, buyFeeAmount)
        case .coin:
            buyFeeAmount = DecimalArithmetic.product(buy.amount, buyFee.rate)
            cost = buy.value
        }
        let withdrawn = held(buying: buy.amount)
        let arriving = ValueBounds.isAboveZero(withdrawn) ? withdrawal.arriving(from: withdrawn) : 0
        let transferFee = DecimalArithmetic.difference(withdrawn, arriving)
        let sell = bids.fill(amount: arriving)
        let sellFeeAmount = DecimalArithmetic.product(sell.value, sellFee.rate)
        let received = DecimalArithmetic.product(DecimalArithmetic.difference(sell.value, sellFeeAmount), rate)
        let net = DecimalArithmetic.difference(received, cost)
        return ArbitrageRoute(
            notional: buy.value, buy: buy, buyFee: buyFeeAmount, cost: cost, withdrawn: withdrawn,
            transferFee: transferFee, sell: sell, sellFee: sellFeeAmount, received: received, net: net,
            netPercent: percent && ValueBounds.isAboveZero(cost) ? net / cost * 100 : nil,
            depthLimited: !buy.complete || !sell.complete)
    }

    func net(buying amount: Decimal) -> Decimal {
        route(buying: amount, percent: false).net
    }

    /// The coin amounts, above zero and up to `largestPurchase`, where `net` changes slope,
    /// ascending, `largestPurchase` last.
    var breakPoints: [Decimal] {
        let largest = largestPurchase
        guard largest > 0 else { return [] }
        var points = asks.amountBoundaries
        points += withdrawal.boundaries.map { bought(forHeld: $0) }
        points += bids.amountBoundaries.dropFirst().map { bought(forHeld: withdrawal.withdrawn(forArriving: $0)) }
        let inside = Set(points.filter { ValueBounds.isAboveZero($0) && DecimalOrder.isLess($0, largest) })
        return inside.sorted(by: DecimalOrder.isLess) + [largest]
    }
}
