import AggCore
import AggJSON
import AggTestKit
import Foundation
import Testing

/// Output grows with what was asked, not with coins × URL (issue 20, rule 9): 2,000 coins on a
/// venue that batches them into URLs, against a 503, are cut into URLs of at most 8 KB, and each
/// failed batch is reported once, naming its markets, on stderr and in JSON `errors`.
@Suite("batched requests: bounded URLs, one error a failed batch, end to end")
struct EndToEndBatchOutputTests {
    @Test("2,000 unknown coins on Upbit answering 503: one stderr line and one JSON error per ≤ 8 KB batch")
    func twoThousandCoins() async throws {
        let server = try FixtureServer(venues: ["upbit"]) { _, request in
            request.path == "/v1/ticker"
                ? .bytes(Array("Service Unavailable".utf8), status: 503, contentType: "text/plain") : nil
        }
        defer { server.stop() }
        var environment = server.environment
        environment["AGG_HOME"] = NSTemporaryDirectory() + "agg-e2e-" + UUID().uuidString
        let coins = (1...2000).map { "C\($0)" }
        let markets = coins.map { Market(base: $0, quote: "KRW") }
        let base = server.baseURL(for: "upbit")
        func url(_ batch: [Market]) -> String {
            base + "/v1/ticker?markets=" + batch.map { "KRW-\($0.base)" }.joined(separator: ",")
        }
        let batches = URLBatches.split(markets, url: url)
        #expect(batches.count == 3)

        let run = try await AggBinary.run(
            ["quote"] + coins + ["-e", "upbit", "-f", "json", "--timeout", "10"], environment: environment)
        #expect(run.status == 1)
        let expected = batches.map { batch in
            "agg: upbit \(batch.count) markets (\(batch[0]), \(batch[1]), \(batch[2]) and \(batch.count - 3) more): "
                + "HTTP 503 from \(url(batch))"
        }
        #expect(run.errorLines == expected)
        #expect(run.error.utf8.count < 3 * 8_400)
        #expect(Set(server.requests.map(\.target)) == Set(batches.map { String(url($0).dropFirst(base.count - 6)) }))
        #expect(server.requests.allSatisfy { $0.target.utf8.count <= 8192 })

        #expect(run.output.split(separator: "\n").count == 1)
        let json = JSONCursor(try JSONParser.parse(run.output))
        #expect(try json["quotes"].elements().isEmpty)
        let errors = try json["errors"].elements()
        #expect(errors.count == 3)
        for (error, batch) in zip(errors, batches) {
            #expect(try error["exchange"].string() == "upbit")
            #expect(try error["symbols"].elements().map { try $0.string() } == batch.map(\.description))
            #expect(!error["symbol"].isPresent)
            #expect(try error["kind"].string() == "http")
            #expect(try error["code"].string() == "503")
            #expect(try error["message"].string() == "HTTP 503 from \(url(batch))")
        }
        #expect(run.output.utf8.count < 3 * 8_400 + 2000 * 16)
    }
}
