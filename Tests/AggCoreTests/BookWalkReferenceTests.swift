import AggJSON
import AggTestKit
import FoundationEssentials
import Testing

@testable import AggCore

/// The book walks as they were before they kept running totals (issue 23's speed work): each
/// level multiplied and summed on every walk, both sides summed again for the depth limit, the
/// route priced from scratch at every break point. The reference the walks of today must equal
/// to the byte.
struct ReferenceWalk {
    var inputs: ArbitrageInputs

    static func fill(_ levels: [BookLevel], amount: Decimal) -> BookFill {
        var left = amount
        var value: Decimal = 0
        for level in levels where left > 0 {
            let taken = min(left, level.amount)
            value += taken * level.price
            left -= taken
        }
        return BookFill(amount: amount - max(left, 0), value: value, best: levels.first?.price, complete: left <= 0)
    }

    static func fill(_ levels: [BookLevel], value: Decimal) -> BookFill {
        var left = value
        var amount: Decimal = 0
        for level in levels where left > 0 {
            let levelValue = level.price * level.amount
            if levelValue <= left {
                amount += level.amount
                left -= levelValue
            } else {
                amount += left / level.price
                left = 0
            }
        }
        return BookFill(amount: amount, value: value - max(left, 0), best: levels.first?.price, complete: left <= 0)
    }

    static func boundaries(_ levels: [BookLevel]) -> [Decimal] {
        var total: Decimal = 0
        return [0]
            + levels.map { level in
                total += level.amount
                return total
            }
    }

    func route(notional: Decimal) -> ArbitrageRoute {
        let wanted = Self.fill(inputs.asks.levels, value: notional)
        let amount = min(wanted.amount, largestPurchase)
        var route = route(buying: amount)
        route.notional = notional
        route.depthLimited = !wanted.complete || amount < wanted.amount
        return route
    }

    func breakEvenNotional() -> Decimal? {
        let points = breakPoints
        guard let first = points.first else { return nil }
        if route(buying: first).net >= 0 { return 0 }
        var previous = first
        var previousNet = route(buying: first).net
        for point in points.dropFirst() {
            let pointNet = route(buying: point).net
            if pointNet >= 0 {
                let amount = previous + (-previousNet) * (point - previous) / (pointNet - previousNet)
                return Self.fill(inputs.asks.levels, amount: amount).value
            }
            previous = point
            previousNet = pointNet
        }
        return nil
    }

    var largestPurchase: Decimal {
        let askTotal = inputs.asks.levels.reduce(0) { $0 + $1.amount }
        let bidTotal = inputs.bids.levels.reduce(0) { $0 + $1.amount }
        guard bidTotal > 0 else { return 0 }
        return min(askTotal, inputs.bought(forHeld: inputs.withdrawal.withdrawn(forArriving: bidTotal)))
    }

    func route(buying amount: Decimal) -> ArbitrageRoute {
        let buy = Self.fill(inputs.asks.levels, amount: amount)
        let fee = inputs.buyFee
        let buyFeeAmount = fee.buyCharge == .quoteCurrency ? buy.value * fee.rate : buy.amount * fee.rate
        let cost = fee.buyCharge == .quoteCurrency ? buy.value + buyFeeAmount : buy.value
        let withdrawn = inputs.held(buying: buy.amount)
        let arriving = withdrawn > 0 ? inputs.withdrawal.arriving(from: withdrawn) : 0
        let transferFee = withdrawn - arriving
        let sell = Self.fill(inputs.bids.levels, amount: arriving)
        let sellFeeAmount = sell.value * inputs.sellFee.rate
        let received = (sell.value - sellFeeAmount) * inputs.rate
        let net = received - cost
        return ArbitrageRoute(
            notional: buy.value, buy: buy, buyFee: buyFeeAmount, cost: cost, withdrawn: withdrawn,
            transferFee: transferFee, sell: sell, sellFee: sellFeeAmount, received: received, net: net,
            netPercent: cost > 0 ? net / cost * 100 : nil, depthLimited: !buy.complete || !sell.complete)
    }

    var breakPoints: [Decimal] {
        let largest = largestPurchase
        guard largest > 0 else { return [] }
        var points = Self.boundaries(inputs.asks.levels)
        points += inputs.withdrawal.boundaries.map { inputs.bought(forHeld: $0) }
        points += Self.boundaries(inputs.bids.levels).dropFirst().map {
            inputs.bought(forHeld: inputs.withdrawal.withdrawn(forArriving: $0))
        }
        let inside = Set(points.filter { $0 > 0 && $0 < largest })
        return inside.sorted() + [largest]
    }
}

/// The walks, routes and break-evens of today against `ReferenceWalk` on every order book in
/// the fixtures and on generated books (level boundaries hit exactly, a partial last level, a
/// book that cannot fill, huge and tiny prices, amounts of 18 and more decimal places, quotients
/// of 38 digits): the same Decimals, and the same text for each.
@Suite("Book walks against the reference walk")
struct BookWalkReferenceTests {
    /// `a` and `b` as the same value written the same way (`DecimalText.format`).
    static func same(_ a: Decimal?, _ b: Decimal?) -> Bool {
        a == b && a.map(DecimalText.format) == b.map(DecimalText.format)
    }

    static func same(_ a: BookFill, _ b: BookFill) -> Bool {
        same(a.amount, b.amount) && same(a.value, b.value) && same(a.best, b.best) && a.complete == b.complete
    }

    static func same(_ a: ArbitrageRoute, _ b: ArbitrageRoute) -> Bool {
        same(a.notional, b.notional) && same(a.buy, b.buy) && same(a.buyFee, b.buyFee) && same(a.cost, b.cost)
            && same(a.withdrawn, b.withdrawn) && same(a.transferFee, b.transferFee) && same(a.sell, b.sell)
            && same(a.sellFee, b.sellFee) && same(a.received, b.received) && same(a.net, b.net)
            && same(a.netPercent, b.netPercent) && a.depthLimited == b.depthLimited
    }

    /// Both walks of `side` at `size`, and every route of `asks` and `bids` at `size`.
    static func expectAgreement(
        asks: BookSide, bids: BookSide, size: Decimal, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        for side in [asks, bids] {
            #expect(
                same(side.fill(amount: size), ReferenceWalk.fill(side.levels, amount: size)), "amount \(size)",
                sourceLocation: sourceLocation)
            #expect(
                same(side.fill(value: size), ReferenceWalk.fill(side.levels, value: size)), "value \(size)",
                sourceLocation: sourceLocation)
            #expect(side.amountBoundaries == ReferenceWalk.boundaries(side.levels), sourceLocation: sourceLocation)
            #expect(
                same(side.totalAmount, side.levels.reduce(0) { $0 + $1.amount }), sourceLocation: sourceLocation)
        }
        for inputs in routes(asks: asks, bids: bids) {
            let reference = ReferenceWalk(inputs: inputs)
            #expect(
                same(inputs.route(notional: size), reference.route(notional: size)), "route at \(size)",
                sourceLocation: sourceLocation)
        }
    }

    /// The routes of `asks` and `bids` under each kind of fee: none; in the currency and a fixed
    /// withdrawal fee; in the coin and a percentage clamped by a minimum and a maximum; FX.
    static func routes(asks: BookSide, bids: BookSide) -> [ArbitrageInputs] {
        let percentage = WithdrawalFee.percentage(
            rate: decimal("0.001"), minimum: decimal("0.0005"), maximum: decimal("0.02"))
        return [
            ArbitrageInputs(
                asks: asks, bids: bids, buyFee: TakerFee(rate: 0), sellFee: TakerFee(rate: 0), withdrawal: .fixed(0),
                rate: 1),
            ArbitrageInputs(
                asks: asks, bids: bids, buyFee: TakerFee(rate: decimal("0.0005")),
                sellFee: TakerFee(rate: decimal("0.0025")), withdrawal: .fixed(decimal("0.0003")),
                rate: 1),
            ArbitrageInputs(
                asks: asks, bids: bids, buyFee: TakerFee(rate: decimal("0.001"), buyCharge: .coin),
                sellFee: TakerFee(rate: decimal("0.0004")), withdrawal: percentage,
                rate: Decimal(1) / 1_330),
        ]
    }

    /// Sizes around `side`: each level boundary exactly (by amount and by value), halfway into
    /// each level, beyond the whole side, and tiny.
    static func sizes(_ side: BookSide) -> [Decimal] {
        var sizes: [Decimal] = [decimal("0.000000000000000001")]
        var amount: Decimal = 0
        var value: Decimal = 0
        for level in side.levels {
            sizes += [amount + level.amount / 2, value + level.price * level.amount / 3]
            amount += level.amount
            value += level.price * level.amount
            sizes += [amount, value]
        }
        sizes += [amount * 2, value * 2 + 1]
        return sizes
    }

    @Test("every book in the fixtures: both walks at every boundary, and the routes at each size")
    func fixtureBooks() throws {
        var books = 0
        for (file, document) in try FixtureDocuments.all() where file.lowercased().contains("book") {
            // Every decimal of the answer, in document order, taken two at a time as a level.
            let values = FixtureDocuments.decimals(in: document)
            guard values.count >= 4 else { continue }
            let levels = stride(from: 0, to: values.count - 1, by: 2).map {
                BookLevel(price: values[$0], amount: values[$0 + 1])
            }
            let asks = BookSide(levels, kind: .asks)
            let bids = BookSide(levels, kind: .bids)
            guard !asks.levels.isEmpty else { continue }
            books += 1
            for size in Self.sizes(asks).prefix(40) { Self.expectAgreement(asks: asks, bids: bids, size: size) }
            for inputs in Self.routes(asks: asks, bids: bids) {
                let reference = ReferenceWalk(inputs: inputs)
                #expect(inputs.breakPoints == reference.breakPoints, "\(file)")
                #expect(Self.same(inputs.breakEvenNotional(), reference.breakEvenNotional()), "\(file)")
            }
        }
        // Seven venues' book answers: a walk that found none would prove nothing.
        #expect(books >= 7)
    }

    /// A generated side of 1 to 30 levels: prices from 1e-8 to 1e9, amounts with up to 20
    /// decimal places, some of them quotients of 38 digits, a few levels repeated.
    static func side(_ kind: BookSide.Kind, using random: inout SeededRandom) -> BookSide {
        let count = Int(random.next() % 30) + 1
        let scale = Int(random.next() % 18) - 8
        var levels: [BookLevel] = []
        for _ in 0..<count {
            let price = Decimal(sign: .plus, exponent: scale, significand: Decimal(random.next() % 1_000_000 + 1))
            let digits = Int(random.next() % 21)
            var amount = Decimal(sign: .plus, exponent: -digits, significand: Decimal(random.next() % 10_000_000 + 1))
            if random.next() % 5 == 0 { amount = amount / 3 }
            levels.append(BookLevel(price: price, amount: amount))
            if random.next() % 8 == 0 { levels.append(BookLevel(price: price, amount: amount)) }
        }
        return BookSide(levels, kind: kind)
    }

    @Test("generated books (fixed seed): both walks, the routes and the break-evens")
    func generatedBooks() async throws {
        var random = SeededRandom(seed: 0xB00C_3A1C)
        for round in 0..<300 {
            if round % 20 == 0 { await Task.yield() }
            let asks = Self.side(.asks, using: &random)
            var bids = Self.side(.bids, using: &random)
            // Half the rounds sell where they bought, so that some routes gain.
            if round % 2 == 0 {
                bids = BookSide(asks.levels.map { BookLevel(price: $0.price * 2, amount: $0.amount) }, kind: .bids)
            }
            let sizes = Self.sizes(asks)
            for index in stride(from: 0, to: sizes.count, by: max(1, sizes.count / 12)) {
                Self.expectAgreement(asks: asks, bids: bids, size: sizes[index])
            }
            for inputs in Self.routes(asks: asks, bids: bids) {
                let reference = ReferenceWalk(inputs: inputs)
                #expect(Self.same(inputs.breakEvenNotional(), reference.breakEvenNotional()), "round \(round)")
            }
        }
    }
}
