import AggCore
import Foundation
import Testing

@testable import AggServices

/// `agg serve`'s archive for `/v1/rates`: the previous poll's table of the source stands in for
/// the stored snapshots, only when it is of the same base and older than the table shown.
@Suite("KeptRates: the previous poll's tables as agg rates' archive")
struct KeptRatesTests {
    static func table(base: String, at seconds: Int64) -> RateTable {
        RateTable(
            source: "exchangerate", base: base, rates: ["KRW": 1331],
            asOf: Timestamp(millisecondsSince1970: seconds * 1000), nextUpdate: nil)
    }

    @Test(
        "previous: the kept table when it is of the base asked and older, else none",
        arguments: [
            ("USD", Int64(100), Int64(200), true),
            ("USD", Int64(200), Int64(200), false),
            ("USD", Int64(300), Int64(200), false),
            ("EUR", Int64(100), Int64(200), false),
        ])
    func previous(keptBase: String, keptAt: Int64, shownAt: Int64, found: Bool) throws {
        let archive = KeptRates(tables: ["exchangerate": Self.table(base: keptBase, at: keptAt)])
        let previous = archive.previous(
            base: "USD", source: "exchangerate", olderThan: Timestamp(millisecondsSince1970: shownAt * 1000))
        #expect(previous?.asOf.millisecondsSince1970 == (found ? keptAt * 1000 : nil))
        #expect(archive.previous(base: "USD", source: "frankfurter", olderThan: .now) == nil)
    }

    @Test("nothing is current, nothing is kept, no favorites")
    func keepsNothing() {
        let archive = KeptRates(tables: ["exchangerate": Self.table(base: "USD", at: 100)])
        #expect(archive.current(base: "USD", source: "exchangerate", now: .now) == nil)
        #expect(archive.keep(Self.table(base: "USD", at: 200), keep: 2) == nil)
        #expect(archive.favorites() == [])
    }
}
