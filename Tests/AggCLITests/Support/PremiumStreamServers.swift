import AggTestKit
import Foundation

/// The servers of one `agg premium --watch --stream` run: upbit's stream playing a given script,
/// binance's playing its ticker.jsonl, and a fixture server answering the REST snapshot of both
/// venues and exchangerate's recent table (`EndToEndPremiumStreamTests.recentRates`).
struct PremiumStreamServers {
    let upbit: WebSocketLoopbackServer
    let binance: WebSocketLoopbackServer
    let rest: FixtureServer

    init(upbit script: WebSocketScript) throws {
        upbit = try WebSocketLoopbackServer(script: script)
        binance = try WebSocketLoopbackServer(script: try WebSocketScript.fixture(venue: "binance", name: "ticker"))
        let table = try EndToEndPremiumStreamTests.recentRates()
        rest = try FixtureServer(venues: ["upbit", "binance", "exchangerate"]) { venue, _ in
            venue == "exchangerate" ? LoopbackReply.json(table) : nil
        }
    }

    /// The private environment pointing agg's streams and REST at the servers, with `extra`.
    func environment(_ extra: [String: String] = [:]) throws -> [String: String] {
        let streams = ["AGG_UPBIT_WS_URL": upbit.url(), "AGG_BINANCE_WS_URL": binance.url()]
        return try rest.privateEnvironment(streams.merging(extra) { _, added in added })
    }

    func stop() {
        upbit.stop()
        binance.stop()
        rest.stop()
    }
}
