import FoundationEssentials

/// One side of an order book made ready to walk: the levels with a positive price and amount,
/// best first (asks lowest first, bids highest first).
///
/// Venues send their levels sorted; a side that arrives out of order is sorted here and says
/// so (`reordered`), so that a walk never fills at a worse price before a better one. A level
/// with a price or an amount of zero or less costs only itself (`skipped`).
public struct BookSide: Sendable, Equatable {
    /// Which side: the order of best first.
    public enum Kind: Sendable, Equatable {
        /// Offers to sell, lowest price first: what a buyer walks.
        case asks
        /// Offers to buy, highest price first: what a seller walks.
        case bids
    }

    public let kind: Kind
    /// The usable levels, best first.
    public let levels: [BookLevel]
    /// How many levels had a price or an amount of zero or less and were left out.
    public let skipped: Int
    /// Whether the venue's levels were not best first (agg sorted them).
    public let reordered: Bool
    /// Each level's worth, `amount * price`, best first.
    let levelValues: [Decimal]
    /// The coin of the levels up to each one, summed best first from 0 (`amountTotals[i]` holds
    /// levels `0...i`): what a walk's running total is after each whole level.
    let amountTotals: [Decimal]
    /// The worth of the levels up to each one (`levelValues` summed the same way).
    let valueTotals: [Decimal]

    public init(_ levels: [BookLevel], kind: Kind) {
        self.kind = kind
        let usable = levels.filter { $0.price > 0 && $0.amount > 0 }
        skipped = levels.count - usable.count
        let better: (BookLevel, BookLevel) -> Bool =
            kind == .asks ? { $0.price < $1.price } : { $0.price > $1.price }
        let inOrder = zip(usable, usable.dropFirst()).allSatisfy { !better($1, $0) }
        reordered = !inOrder
        let sorted = inOrder ? usable : usable.sorted(by: better)
        self.levels = sorted
        // The walks below sum these in this order, one level at a time from 0: keeping the
        // running totals gives them the same Decimals without summing again on every walk.
        var values: [Decimal] = []
        var amounts: [Decimal] = []
        var worths: [Decimal] = []
        values.reserveCapacity(sorted.count)
        amounts.reserveCapacity(sorted.count)
        worths.reserveCapacity(sorted.count)
        var amount: Decimal = 0
        var worth: Decimal = 0
        for level in sorted {
            let value = DecimalArithmetic.product(level.amount, level.price)
            amount = DecimalArithmetic.sum(amount, level.amount)
            worth = DecimalArithmetic.sum(worth, value)
            values.append(value)
            amounts.append(amount)
            worths.append(worth)
        }
        levelValues = values
        amountTotals = amounts
        valueTotals = worths
    }

    /// The best price, `nil` for an empty side.
    public var best: Decimal? { levels.first?.price }

    /// The coin the whole side holds.
    public var totalAmount: Decimal { amountTotals.last ?? 0 }

    /// What the whole side is worth in the quote currency.
    public var totalValue: Decimal { levels.reduce(0) { $0 + $1.price * $1.amount } }

    /// Walks the side for `amount` of the coin: a buy on asks, a sale on bids.
    ///
    /// Whole levels are counted from the running totals kept at `init` (the same sums a walk
    /// adding level by level makes); only what is left is subtracted level by level, and only
    /// the last, partial level is multiplied.
    public func fill(amount: Decimal) -> BookFill {
        var left = amount
        var whole = 0
        var value: Decimal = 0
        while whole < levels.count, Self.isAboveZero(left) {
            let level = levels[whole]
            // A level the rest does not exceed is taken whole; one that is exactly the rest is
            // taken as the rest (`min` keeps `left`), as is a partial one.
            guard DecimalOrder.isLess(level.amount, left) else {
                value = DecimalArithmetic.sum(
                    whole > 0 ? valueTotals[whole - 1] : 0, DecimalArithmetic.product(left, level.price))
                left = DecimalArithmetic.difference(left, left)
                return BookFill(
                    amount: DecimalArithmetic.difference(amount, Self.positivePart(left)), value: value, best: best,
                    complete: !Self.isAboveZero(left))
            }
            left = DecimalArithmetic.difference(left, level.amount)
            whole += 1
        }
        if whole > 0 { value = valueTotals[whole - 1] }
        return BookFill(
            amount: DecimalArithmetic.difference(amount, Self.positivePart(left)), value: value, best: best,
            complete: !Self.isAboveZero(left))
    }

    /// Walks the side for `value` in the quote currency (a buy of that size on asks). Within a
    /// level the coin bought is `value / price`, a Decimal division.
    public func fill(value: Decimal) -> BookFill {
        var left = value
        var whole = 0
        var amount: Decimal = 0
        var partial = false
        while whole < levels.count, Self.isAboveZero(left) {
            let levelValue = levelValues[whole]
            guard !DecimalOrder.isLess(left, levelValue) else {
                amount = DecimalArithmetic.sum(whole > 0 ? amountTotals[whole - 1] : 0, left / levels[whole].price)
                left = 0
                partial = true
                break
            }
            left = DecimalArithmetic.difference(left, levelValue)
            whole += 1
        }
        if !partial, whole > 0 { amount = amountTotals[whole - 1] }
        return BookFill(
            amount: amount, value: DecimalArithmetic.difference(value, Self.positivePart(left)), best: best,
            complete: !Self.isAboveZero(left))
    }

    /// Whether `value` is above zero (`value > 0` without bringing both sides to one exponent).
    static func isAboveZero(_ value: Decimal) -> Bool {
        ValueBounds.isAboveZero(value)
    }

    /// `max(value, 0)`: `value` above zero, else 0.
    static func positivePart(_ value: Decimal) -> Decimal {
        isAboveZero(value) ? value : 0
    }

    /// The coin amounts at which a walk moves to the next level: 0, then the running totals.
    var amountBoundaries: [Decimal] { [0] + amountTotals }
}

extension BookSide {
    /// Whether a book is crossed: its best ask below its best bid, which no live book is. A
    /// crossed book is flagged and not used.
    public static func isCrossed(asks: BookSide, bids: BookSide) -> Bool {
        guard let ask = asks.best, let bid = bids.best else { return false }
        return ask < bid
    }
}

/// The result of walking one side of a book.
public struct BookFill: Sendable, Equatable {
    /// The coin bought or sold.
    public var amount: Decimal
    /// What it cost or brought, in the quote currency.
    public var value: Decimal
    /// The side's best price before the walk.
    public var best: Decimal?
    /// Whether the side had enough for the whole request.
    public var complete: Bool

    public init(amount: Decimal, value: Decimal, best: Decimal?, complete: Bool) {
        self.amount = amount
        self.value = value
        self.best = best
        self.complete = complete
    }

    /// `value / amount`; `nil` when nothing filled.
    public var averagePrice: Decimal? { amount > 0 ? value / amount : nil }

    /// How far the average price is from the best, in percent of the best (positive: worse for
    /// the taker on either side); `nil` when nothing filled.
    public var slippagePercent: Decimal? {
        guard let average = averagePrice, let best, best > 0 else { return nil }
        let difference = average - best
        return (difference < 0 ? -difference : difference) / best * 100
    }
}
