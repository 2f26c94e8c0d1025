import AggCore
import AggDataVenues
import AggTestKit
import FoundationEssentials
import Testing

/// The shipped GOPAX file's fees, a data venue's: the base-tier taker fee with its page and day,
/// and transfer status from `/assets` (fees and minimums; no public status).
@Suite("GOPAX fees (data venue)")
struct GopaxFeesTests {
    @Test("the file declares the taker fee (0.2 %, gopax.co.kr/feeinfo, 2026-09-22) and transfer status")
    func descriptor() throws {
        let adapter = try GopaxStreamTests.adapter()
        #expect(
            adapter.descriptor.fees
                == FeeSchedule(
                    defaultTaker: decimal("0.002"), source: "https://www.gopax.co.kr/feeinfo", asOf: "2026-09-22"))
        #expect(adapter.descriptor.supports(.transferStatus))
    }
}
