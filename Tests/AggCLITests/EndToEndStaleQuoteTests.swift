import AggCore
import AggJSON
import AggTestKit
import Foundation
import Synchronization
import Testing

/// Whether the server fails, switched between runs.
private final class Outage: Sendable {
    private let down = Mutex(false)

    var isDown: Bool { down.withLock { $0 } }

    func begin() { down.withLock { $0 = true } }
}

/// The real `agg` binary caching a quote, then showing it stale when the venue fails.
@Suite("agg quote end to end: stale quotes")
struct EndToEndStaleQuoteTests {
    @Test("a quote cached by one run stands in, marked stale, when the venue answers 503 the next time; exit 1")
    func staleAfter503() async throws {
        let outage = Outage()
        let server = try FixtureServer(venues: ["bithumb"]) { _, _ in outage.isDown ? LoopbackReply.status(503) : nil }
        try await withTemporaryHome { home async throws in
            let environment = server.environment.merging(["AGG_HOME": home]) { $1 }
            let arguments = ["quote", "BTC", "-e", "bithumb", "-f", "json"]
            let first = try await AggBinary.run(arguments, environment: environment)
            #expect(first.status == 0)
            #expect(first.error == "")
            #expect(FileManager.default.fileExists(atPath: home + "/agg.sqlite"))

            outage.begin()
            let second = try await AggBinary.run(arguments, environment: environment)
            #expect(second.status == 1)
            #expect(second.errorLines.count == 1)
            #expect(second.error.hasPrefix("agg: bithumb BTC/KRW: HTTP 503 from http://127.0.0.1:"))
            let json = JSONCursor(try JSONParser.parse(second.output))
            let quote = json["quotes"][0]
            let firstQuote = JSONCursor(try JSONParser.parse(first.output))["quotes"][0]
            // The cached quote, exactly as first printed, its age keys last, now stale.
            #expect(try quote.members().map(\.key) == (try firstQuote.members().map(\.key)))
            #expect(
                quote.value.map(AgeFields.stripped)?.serialized()
                    == firstQuote.value.map(AgeFields.stripped)?.serialized())
            #expect(try quote["last"].string() == "80630000")
            #expect(try quote["timestamp"].string() == "2024-08-08T08:12:15.027Z")
            #expect(quote["stale"].value == .bool(true))
            // Aged from Bithumb's recorded time: more than two years.
            let age = try quote["ageSeconds"].string()
            #expect(age.range(of: #"^\d{8,}\.\d{3}$"#, options: .regularExpression) != nil)
            #expect(try json["errors"][0]["kind"].string() == "http")
            #expect(try json["errors"][0]["code"].string() == "503")

            let off = try await AggBinary.run(arguments + ["--max-stale", "0"], environment: environment)
            #expect(off.status == 1)
            #expect(try JSONCursor(try JSONParser.parse(off.output))["quotes"].elements().isEmpty)
        }
    }
}
