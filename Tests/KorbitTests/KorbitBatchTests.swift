import AggCore
import AggTestKit
import Testing

@testable import Korbit

/// Korbit takes several markets in one `/v2/tickers?symbol=` URL: 2,000 markets are cut into
/// URLs of at most 8 KB, and a failed request fails only its own markets, with its own URL.
@Suite("Korbit URL batches")
struct KorbitBatchTests {
    @Test("2,000 markets against a 503: every URL at most 8 KB, one error per request, every market answered")
    func twoThousand() async throws {
        let batch = await AdapterTestBed(KorbitAdapter.self).batchAgainstFailingVenue(markets: 2000)
        #expect(batch.urls.count == 3)
        #expect(batch.urls.allSatisfy { $0.utf8.count <= URLBatches.maximumURLLength })
        #expect(batch.unfailed == [])
        // The batches are asked at once: they answer in any order.
        #expect(
            batch.failures.map(\.description).sorted()
                == batch.urls.map { AggError.http(venue: "korbit", status: 503, url: $0).description }.sorted())
    }
}
