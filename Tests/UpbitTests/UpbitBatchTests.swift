import AggCore
import AggTestKit
import Testing
import Upbit

/// Upbit takes several markets in one `/v1/ticker?markets=` URL: 10,000 markets (one 99 KB URL
/// before) are cut into URLs of at most 8 KB, and a failed request fails only its own markets,
/// with its own URL.
@Suite("Upbit URL batches")
struct UpbitBatchTests {
    @Test("10,000 markets against a 503: 13 requests of at most 8 KB, one error each, every market answered")
    func tenThousand() async throws {
        let client = ScriptedHTTPClient(status: 503, body: "busy")
        let upbit = UpbitAdapter(environment: AdapterEnvironment(baseURL: "https://api.upbit.com", http: client))
        let markets = (1...10_000).map { Market(base: "C\($0)", quote: "KRW") }
        let results = await upbit.quotes(for: markets)
        let urls = client.requests.map(\.url)
        #expect(urls.count == 13)
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
        #expect(
            Set(errors.map(\.description))
                == Set(urls.map { AggError.http(venue: "upbit", status: 503, url: $0).description }))
        #expect(errors.count == 13)
    }
}
