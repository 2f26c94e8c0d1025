import AggCore
import FoundationEssentials

/// A model value as an expectation states it: decimals and times as their exact text, records
/// of named fields (absent optionals left out), lists, and tables (currency → rate).
public indirect enum ModelValue: Sendable, Equatable {
    case text(String)
    case number(Int)
    case list([ModelValue])
    /// Named fields; an expectation names every one of them.
    case record([(String, ModelValue)])
    /// A lookup table; an expectation names the entries it checks and, as `$count`, how many there are.
    case table([(String, ModelValue)])

    public static func == (left: ModelValue, right: ModelValue) -> Bool {
        switch (left, right) {
        case (.text(let a), .text(let b)): a == b
        case (.number(let a), .number(let b)): a == b
        case (.list(let a), .list(let b)): a == b
        case (.record(let a), .record(let b)), (.table(let a), .table(let b)):
            a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: false
        }
    }

    /// A record of the fields that are present.
    static func fields(_ fields: [(String, ModelValue?)]) -> ModelValue {
        .record(fields.compactMap { name, value in value.map { (name, $0) } })
    }

    init(_ decimal: Decimal) { self = .text(decimal.description) }
    init(_ timestamp: Timestamp) { self = .text(timestamp.description) }

    init(_ quote: Quote) {
        self = .fields([
            ("exchange", .text(quote.exchange)), ("market", .text(quote.market.description)),
            ("last", ModelValue(quote.last)), ("open", quote.open.map(ModelValue.init)),
            ("high", quote.high.map(ModelValue.init)), ("low", quote.low.map(ModelValue.init)),
            ("previousClose", quote.previousClose.map(ModelValue.init)),
            ("change", quote.change.map(ModelValue.init)), ("changePercent", quote.changePercent.map(ModelValue.init)),
            ("changeBasis", quote.changeBasis.map { .text($0.rawValue) }),
            ("baseVolume", quote.baseVolume.map(ModelValue.init)),
            ("quoteVolume", quote.quoteVolume.map(ModelValue.init)),
            ("timestamp", quote.timestamp.map(ModelValue.init)),
        ])
    }

    init(_ listing: MarketListing) {
        self = .fields([
            ("exchange", .text(listing.exchange)), ("market", .text(listing.market.description)),
            ("symbol", .text(listing.venueSymbol)), ("koreanName", listing.koreanName.map { .text($0) }),
            ("englishName", listing.englishName.map { .text($0) }), ("last", listing.last.map(ModelValue.init)),
        ])
    }

    init(_ candle: Candle) {
        self = .record([
            ("time", ModelValue(candle.time)), ("open", ModelValue(candle.open)), ("high", ModelValue(candle.high)),
            ("low", ModelValue(candle.low)), ("close", ModelValue(candle.close)), ("volume", ModelValue(candle.volume)),
        ])
    }

    init(_ trade: Trade) {
        self = .record([
            ("time", ModelValue(trade.time)), ("side", .text(trade.side.rawValue)), ("price", ModelValue(trade.price)),
            ("amount", ModelValue(trade.amount)), ("cost", ModelValue(trade.cost)),
        ])
    }

    /// A book level as `[price, amount]`.
    init(_ level: BookLevel) { self = .list([ModelValue(level.price), ModelValue(level.amount)]) }

    init(_ book: OrderBook) {
        self = .fields([
            ("exchange", .text(book.exchange)), ("market", .text(book.market.description)),
            ("timestamp", book.timestamp.map(ModelValue.init)), ("bids", .list(book.bids.map(ModelValue.init))),
            ("asks", .list(book.asks.map(ModelValue.init))),
        ])
    }

    init(_ table: RateTable) {
        self = .fields([
            ("source", .text(table.source)), ("base", .text(table.base)), ("asOf", ModelValue(table.asOf)),
            ("nextUpdate", table.nextUpdate.map(ModelValue.init)),
            ("rates", .table(table.rates.sorted { $0.key < $1.key }.map { ($0.key, ModelValue($0.value)) })),
            ("refused", table.refused.isEmpty ? nil : .list(table.refused.map { .text($0.description) })),
        ])
    }

    init(_ status: TransferStatus) {
        self = .fields([
            ("exchange", .text(status.exchange)), ("coin", .text(status.coin)),
            ("network", status.network.map { .text($0) }), ("deposit", .text(status.deposit.rawValue)),
            ("withdraw", .text(status.withdraw.rawValue)), ("withdrawFee", status.withdrawFee.map(ModelValue.init)),
            ("asOf", status.asOf.map(ModelValue.init)), ("note", status.note.map { .text($0) }),
            ("withdrawalRate", status.withdrawal.flatMap(Self.rate)),
            ("withdrawMinimum", status.withdrawMinimum.map(ModelValue.init)),
            ("feeSource", status.feeSource.map(Self.source)),
        ])
    }

    /// A percentage withdrawal fee as `0.001 min 0.002 max 0.01` (no `max` without one); `nil`
    /// for a fixed fee, which `withdrawFee` holds.
    static func rate(_ fee: WithdrawalFee) -> ModelValue? {
        guard case .percentage(let rate, let minimum, let maximum) = fee else { return nil }
        return .text("\(rate) min \(minimum)" + (maximum.map { " max \($0)" } ?? ""))
    }

    /// `venue`, `configuration` or `table SOURCE ASOF`.
    static func source(_ source: WithdrawalFeeSource) -> ModelValue {
        switch source {
        case .venue: .text("venue")
        case .configuration: .text("configuration")
        case .table(let page, let asOf): .text("table \(page) \(asOf)")
        }
    }

    /// An error as `{"error": {"kind": ..., "message": ...}}`: its kind and its one-line text.
    init(_ error: AggError) {
        self = .record([("error", .record([("kind", .text(error.kind)), ("message", .text(error.description))]))])
    }
}
