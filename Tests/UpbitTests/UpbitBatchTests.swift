import AggCore
import AggTestKit
import Testing

@testable import Upbit

/// Upbit takes several markets in one `/v1/ticker?markets=` URL: 10,000 markets (one 99 KB URL
/// before) are cut into URLs of at most 8 KB, and a failed request fails only its own markets,
/// with its own URL.
@Suite("Upbit URL batches")
struct UpbitBatchTests {
    @Test("10,000 markets against a 503: 13 requests of at most 8 KB, one error each, every market answered")
    func tenThousand() async throws {
        let batch = await AdapterTestBed(UpbitAdapter.self).batchAgainstFailingVenue(markets: 10_000)
        #expect(batch.urls.count == 13)
        #expect(batch.urls.allSatisfy { $0.utf8.count <= URLBatches.maximumURLLength })
        #expect(batch.unfailed == [])
        #expect(
            Set(batch.failures.map(\.description))
                == Set(batch.urls.map { AggError.http(venue: "upbit", status: 503, url: $0).description }))
        #expect(batch.failures.count == 13)
    }
}
