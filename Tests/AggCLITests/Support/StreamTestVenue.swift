import AggCore
import AggTestKit
import Foundation
import Synchronization

/// A venue with a stream, for the live quote service's tests: text JSON tickers
/// `{"m":"BTC","p":"2.5","t":1700000000500}` (KRW markets), `garbage` that does not decode, and
/// REST tickers at `<base>/ticker/<BASE>` whose body is the price.
struct StreamTestAdapter: CompiledAdapter {
    static let descriptor = AdapterDescriptor(
        id: "streamy", displayName: "Streamy", country: "KR", homeCurrency: "KRW", quoteCurrencies: ["KRW"],
        capabilities: [.ticker, .stream], requestsPerSecond: 10, defaultBaseURL: "https://streamy.invalid",
        stream: StreamDescriptor(
            url: "wss://streamy.invalid/ws", keepAlive: .none, silenceLimit: .seconds(1000),
            quotas: StreamQuotas(
                marketsPerConnection: 10, marketsPerMessage: 10, messagesPerSecond: 100, connectionsPerWindow: 100,
                connectionWindow: .seconds(60))))

    let environment: AdapterEnvironment

    init(environment: AdapterEnvironment) {
        self.environment = environment
    }

    var tickerStream: (any TickerStreamCodec)? { StreamTestCodec() }

    func quote(for market: Market) async throws(AggError) -> Quote {
        let url = environment.baseURL + "/ticker/" + market.base
        let response: HTTPResponse
        do {
            response = try await environment.http.send(HTTPRequest(url: url))
        } catch {
            throw .connection(venue: "streamy", url: url, detail: "\(error)")
        }
        guard response.status == 200, let last = Decimal(string: String(decoding: response.body, as: UTF8.self)) else {
            throw .http(venue: "streamy", status: response.status, url: url)
        }
        return Quote(exchange: "streamy", market: market, last: last)
    }
}

/// `StreamTestAdapter`'s frames.
struct StreamTestCodec: TickerStreamCodec {
    func subscribeMessages(for markets: [Market]) -> [StreamMessage] {
        [.text("sub " + markets.map(\.base).joined(separator: ","))]
    }

    /// A message is one ticker object, or an array of them.
    func read(_ message: StreamMessage, receivedAt: Timestamp) -> StreamReading {
        guard case .text(let text) = message, let value = try? JSONSerialization.jsonObject(with: Data(text.utf8))
        else { return .malformed("not JSON") }
        let objects = (value as? [[String: Any]]) ?? [value as? [String: Any]].compactMap { $0 }
        var quotes: [Quote] = []
        for object in objects {
            guard let base = object["m"] as? String,
                let price = (object["p"] as? String).flatMap({ Decimal(string: $0) }), let time = object["t"] as? Int
            else { return .malformed("not a ticker") }
            quotes.append(
                Quote(
                    exchange: "streamy", market: Market(base: base, quote: "KRW"), last: price,
                    timestamp: Timestamp(millisecondsSince1970: Int64(time)), receivedAt: receivedAt))
        }
        return quotes.isEmpty ? .malformed("not a ticker") : .quotes(quotes, skipped: [])
    }

    /// A ticker frame.
    static func ticker(_ base: String, _ price: String, _ time: Int64 = 1_700_000_000_500) -> String {
        #"{"m":"\#(base)","p":"\#(price)","t":\#(time)}"#
    }
}

/// The test registry with the stream venue and the ticker-only one.
func streamRegistry() -> AdapterRegistry {
    var registry = AdapterRegistry()
    registry.register(StreamTestAdapter.self)
    registry.register(TickerOnlyAdapter.self)
    return registry
}

/// REST answers for `StreamTestAdapter`: the price of each base, changed by the test; every
/// request counted.
final class StreamTestREST: Sendable {
    /// The prices, shared with the client's script.
    final class Prices: Sendable {
        let table: Mutex<[String: String]>

        init(_ prices: [String: String]) {
            table = Mutex(prices)
        }
    }

    private let prices: Prices
    let client: ScriptedHTTPClient

    init(_ prices: [String: String]) {
        let table = Prices(prices)
        self.prices = table
        client = ScriptedHTTPClient { request in
            let base = String(request.url.split(separator: "/").last ?? "")
            guard let price = table.table.withLock({ $0[base] }) else {
                return HTTPResponse(status: 404, headers: [], body: [], url: request.url)
            }
            return HTTPResponse(status: 200, headers: [], body: Array(price.utf8), url: request.url)
        }
    }

    func set(_ base: String, _ price: String) {
        prices.table.withLock { $0[base] = price }
    }

    var requests: Int { client.requests.count }
}
