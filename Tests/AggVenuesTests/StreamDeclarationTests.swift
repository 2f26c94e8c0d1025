import AggCore
import AggTestKit
import AggVenues
import Testing

/// What each compiled venue with a ticker stream declares about it, one row a venue: the
/// capability, `AGG_<ID>_WS_URL`, and the descriptor's stream (URL, keep-alive, silence limit,
/// quotas), and the codec its adapter hands the stream runner.
@Suite("Stream declarations of the compiled venues")
struct StreamDeclarationTests {
    @Test(
        "the descriptor declares the stream, and the adapter hands the runner its codec",
        arguments: [
            // binance: combined endpoint, Binance's pings, its published quotas
            (
                "binance", "BinanceTickerStream",
                StreamDeclaration(
                    urlVariable: "AGG_BINANCE_WS_URL",
                    stream: StreamDescriptor(
                        url: "wss://stream.binance.com:9443/stream", keepAlive: .none, silenceLimit: .seconds(60),
                        quotas: StreamQuotas(
                            marketsPerConnection: 1024, marketsPerMessage: 200, messagesPerSecond: 4,
                            connectionsPerWindow: 300, connectionWindow: .seconds(300))))
            ),
            // kraken: v2 endpoint, Kraken's heartbeats, conservative quotas
            (
                "kraken", "KrakenTickerStream",
                StreamDeclaration(
                    urlVariable: "AGG_KRAKEN_WS_URL",
                    stream: StreamDescriptor(
                        url: "wss://ws.kraken.com/v2", keepAlive: .none, silenceLimit: .seconds(15),
                        quotas: StreamQuotas(
                            marketsPerConnection: 200, marketsPerMessage: 200, messagesPerSecond: 1,
                            connectionsPerWindow: 100, connectionWindow: .seconds(600))))
            ),
            // coinbase: the Exchange feed, heartbeats, subscribe within 5 s
            (
                "coinbase", "CoinbaseTickerStream",
                StreamDeclaration(
                    urlVariable: "AGG_COINBASE_WS_URL",
                    stream: StreamDescriptor(
                        url: "wss://ws-feed.exchange.coinbase.com", keepAlive: .none, silenceLimit: .seconds(15),
                        quotas: StreamQuotas(
                            marketsPerConnection: 100, marketsPerMessage: 100, messagesPerSecond: 4,
                            connectionsPerWindow: 8, connectionWindow: .seconds(1), subscribeWithin: .seconds(5))))
            ),
            // okx: public v5 endpoint, text ping under 30 s, OKX's quotas
            (
                "okx", "OKXTickerStream",
                StreamDeclaration(
                    urlVariable: "AGG_OKX_WS_URL",
                    stream: StreamDescriptor(
                        url: "wss://ws.okx.com:8443/ws/v5/public",
                        keepAlive: .message(.text("ping"), every: .seconds(20)),
                        silenceLimit: .seconds(30),
                        quotas: StreamQuotas(
                            marketsPerConnection: 300, marketsPerMessage: 300, messagesPerSecond: 3,
                            connectionsPerWindow: 3, connectionWindow: .seconds(1))))
            ),
        ])
    func declared(venue: String, codec: String, declaration: StreamDeclaration) throws {
        let registration = try #require(AdapterRegistry.standard.registrations.first { $0.descriptor.id == venue })
        #expect(StreamDeclaration(registration.descriptor) == declaration)
        let adapter = registration.make(
            AdapterEnvironment(baseURL: "http://127.0.0.1:9", http: ScriptedHTTPClient(body: "")))
        #expect(adapter.tickerStream.map { "\(type(of: $0))" } == codec)
    }
}
