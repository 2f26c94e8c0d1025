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

    public init(_ levels: [BookLevel], kind: Kind) {
        self.kind = kind
        let usable = levels.filter { $0.price > 0 && $0.amount > 0 }
        skipped = levels.count - usable.count
        let better: (BookLevel, BookLevel) -> Bool =
            kind == .asks ? { $0.price < $1.price } : { $0.price > $1.price }
        let inOrder = zip(usable, usable.dropFirst()).allSatisfy { !better($1, $0) }
        reordered = !inOrder
        self.levels = inOrder ? usable : usable.sorted(by: better)
    }

    /// The best price, `nil` for an empty side.
    public var best: Decimal? { levels.first?.price }

    /// The coin the whole side holds.
    public var totalAmount: Decimal { levels.reduce(0) { $0 + $1.amount } }

    /// What the whole side is worth in the quote currency.
    public var totalValue: Decimal { levels.reduce(0) { $0 + $1.price * $1.amount } }

    /// Walks the side for `amount` of the coin: a buy on asks, a sale on bids.
    public func fill(amount: Decimal) -> BookFill {
        var left = amount
        var value: Decimal = 0
        for level in levels where left > 0 {
            let taken = min(left, level.amount)
            value += taken * level.price
            left -= taken
        }
        return BookFill(amount: amount - max(left, 0), value: value, best: best, complete: left <= 0)
    }

    /// Walks the side for `value` in the quote currency (a buy of that size on asks). Within a
    /// level the coin bought is `value / price`, a Decimal division.
    public func fill(value: Decimal) -> BookFill {
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
        return BookFill(amount: amount, value: value - max(left, 0), best: best, complete: left <= 0)
    }

    /// The coin amounts at which a walk moves to the next level: 0, then the running totals.
    var amountBoundaries: [Decimal] {
        var total: Decimal = 0
        return [0]
            + levels.map { level in
                total += level.amount
                return total
            }
    }
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
