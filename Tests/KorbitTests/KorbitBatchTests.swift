import AggCore
import AggTestKit
import Korbit
import Testing

/// Korbit takes several markets in one `/v2/tickers?symbol=` URL: 2,000 markets are cut into
/// URLs of at most 8 KB, and a failed request fails only its own markets, with its own URL.
@Suite("Korbit URL batches")
struct KorbitBatchTests {
    @Test("2,000 markets against a 503: every URL at most 8 KB, one error per request, every market answered")
    func twoThousand() async throws {
        let bed = AdapterTestBed(KorbitAdapter.self)
        let client = ScriptedHTTPClient(status: 503, body: "busy")
        let markets = (1...2000).map { Market(base: "C\($0)", quote: "KRW") }
        let results = await bed.adapter(client).quotes(for: markets)
        let urls = client.requests.map(\.url)
        #expect(urls.count == 3)
        #expect(urls.allSatisfy { $0.utf8.count <= URLBatches.maximumURLLength })
        #expect(Set(results.keys) == Set(markets))
        var errors: [AggError] = []
        for market in markets {
            guard case .failure(let error) = results[market] else {
                Issue.record("\(market) did not fail")
                continue
            }
            if !errors.contains(error) { errors.append(error) }
        }
        #expect(errors == urls.map { AggError.http(venue: "korbit", status: 503, url: $0) })
    }
}
