import AggCore
import Testing

/// Batches of markets are cut by the length of their URL (and a count when the venue caps it).
@Suite("URL batches")
struct URLBatchesTests {
    static func url(_ codes: [String]) -> String {
        "http://127.0.0.1:8080/v1/ticker?markets=" + codes.joined(separator: ",")
    }

    @Test("10,000 codes: every URL at most 8 KB, in order, nothing lost, each batch as full as fits")
    func tenThousand() {
        let codes = (0..<10_000).map { "KRW-C\($0)" }
        let batches = URLBatches.split(codes, url: Self.url)
        #expect(batches.flatMap { $0 } == codes)
        #expect(batches.allSatisfy { Self.url($0).utf8.count <= 8 * 1024 })
        for (batch, next) in zip(batches, batches.dropFirst()) {
            #expect(Self.url(batch + [next[0]]).utf8.count > 8 * 1024)
        }
        #expect(batches.count == 13)
        #expect(URLBatches.maximumURLLength == 8192)
    }

    @Test(
        "exact cuts at a small limit, a count cap, an item too long for any batch, and no items",
        arguments: [
            (["AA", "BB", "CC", "DD"], 8, Int.max, [["AA", "BB"], ["CC", "DD"]]),  // "?m=AA,BB" is 8 bytes
            (["AA", "BB", "CC", "DD"], 100, 3, [["AA", "BB", "CC"], ["DD"]]),
            (["AA", "LONGLONGLONG", "BB"], 8, Int.max, [["AA"], ["LONGLONGLONG"], ["BB"]]),
            ([], 8, Int.max, []),
        ])
    func cuts(codes: [String], limit: Int, count: Int, expected: [[String]]) {
        let batches = URLBatches.split(codes, maximumCount: count, maximumLength: limit) {
            "?m=" + $0.joined(separator: ",")
        }
        #expect(batches == expected)
    }
}
