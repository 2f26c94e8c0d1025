import AggCore
import AggJSON
import AggTestKit
import Foundation
import Testing

/// `agg quote` on Coinbase when its 24-hour stats fail and its ticker answers: the quote, exit 0,
/// and the stats failure said once, only under AGG_DEBUG.
@Suite("agg quote: Coinbase without its stats")
struct CoinbaseStatsNoteTests {
    static let base = "https://api.exchange.coinbase.com"

    static func client() throws -> ScriptedHTTPClient {
        let responder = try FixtureResponder(venue: "coinbase", baseURL: base)
        return ScriptedHTTPClient { request in
            guard request.url.hasSuffix("/stats") else { return try responder.respond(to: request) }
            return HTTPResponse(status: 503, headers: [], body: Array("busy".utf8), url: request.url)
        }
    }

    @Test("the quote answers with the stats fields null; AGG_DEBUG says why once, and nothing is said without it")
    func statsFail() async throws {
        let arguments = ["quote", "BTC", "-e", "coinbase", "-f", "json", "--timeout", "5"]
        let debug = await runCLI(
            arguments, environment: ["AGG_DEBUG": "1"], http: try Self.client(), registry: fixedRegistry(["coinbase"]))
        #expect(debug.status == 0)
        #expect(
            debug.errorLines == [
                "agg: debug: coinbase BTC/USD: 24-hour stats failed (HTTP 503 from \(Self.base)/products/BTC-USD/stats); "
                    + "the quote has no open, high, low, volume or change"
            ])
        let quote = try debug.json()["quotes"][0]
        #expect(try quote["last"].string() == "58431.29")
        #expect(quote["open"].value == .null)
        #expect(quote["baseVolume"].value == .null)
        #expect(quote["changeBasis"].value == .null)
        #expect(try debug.json()["errors"].elements().isEmpty)

        let quiet = await runCLI(arguments, http: try Self.client(), registry: fixedRegistry(["coinbase"]))
        #expect(quiet.status == 0)
        #expect(quiet.error == "")
        #expect(AgeFields.stripped(text: quiet.output) == AgeFields.stripped(text: debug.output))
    }
}
