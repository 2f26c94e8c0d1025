/// Something a source can do. Capabilities are data: `agg exchanges` lists them and the CLI
/// checks them before calling, so nothing is probed by trial and error.
public enum Capability: String, Sendable, CaseIterable, Comparable {
    case ticker
    case allTickers
    case markets
    case candles
    case trades
    case orderBook
    case fxRates
    /// Whether coins can be deposited and withdrawn, per network.
    case transferStatus
    /// Tickers pushed over WebSocket as they change (`AdapterDescriptor.stream`,
    /// `VenueAdapter.tickerStream`).
    case stream
    /// Event sources read by the adapter itself (`AdapterDescriptor.eventSources` whose reader is
    /// `.adapter`, `VenueAdapter.fetchEvents`): a venue's market warnings, cautions, notices.
    case events

    /// Words for messages: "order book is not supported by coinbase".
    public var title: String {
        switch self {
        case .ticker: "ticker"
        case .allTickers: "all tickers in one request"
        case .markets: "market list"
        case .candles: "candles"
        case .trades: "trades"
        case .orderBook: "order book"
        case .fxRates: "exchange rates"
        case .transferStatus: "transfer status"
        case .stream: "ticker stream"
        case .events: "market events"
        }
    }

    public static func < (lhs: Capability, rhs: Capability) -> Bool {
        (allCases.firstIndex(of: lhs) ?? 0) < (allCases.firstIndex(of: rhs) ?? 0)
    }
}
