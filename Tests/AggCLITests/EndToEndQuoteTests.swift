import AggCore
import AggJSON
import AggTestKit
import Foundation
import Synchronization
import Testing

/// The real `agg` binary, over real libcurl, against a loopback server serving Fixtures/.
@Suite("agg quote end to end")
struct EndToEndQuoteTests {
    func environment(_ server: FixtureServer, _ extra: [String: String] = [:]) -> [String: String] {
        var environment = server.environment
        environment["AGG_HOME"] = NSTemporaryDirectory() + "agg-e2e-" + UUID().uuidString
        environment.merge(extra) { _, new in new }
        return environment
    }

    @Test("one coin: exact JSON, exit 0, nothing on stderr, the right request")
    func oneCoin() async throws {
        let server = try FixtureServer(venues: ["bithumb"])
        let run = try await AggBinary.run(
            ["quote", "BTC", "--exchange", "bithumb", "--format", "json"], environment: environment(server))
        #expect(run.status == 0)
        #expect(run.error == "")
        let quote = JSONCursor(try JSONParser.parse(run.output))["quotes"][0]
        #expect(try quote["last"].string() == "80630000")
        #expect(try quote["quoteVolume"].string() == "109282011238.50126")
        #expect(try quote["timestamp"].string() == "2024-08-08T08:12:15.027Z")
        let request = try #require(server.requests.first)
        #expect(server.requests.count == 1)
        #expect(request.path == "/bithumb/public/ticker/BTC_KRW")
        #expect(request.header("User-Agent") == "agg/\(AggVersion.current)")
        #expect(request.header("Origin") == nil)
        #expect(request.header("Accept-Encoding")?.contains("gzip") == true)
    }

    @Test("several coins: one ALL request; an unlisted coin exits 1 and names itself on stderr")
    func severalCoins() async throws {
        let server = try FixtureServer(venues: ["bithumb"])
        let run = try await AggBinary.run(
            ["quote", "BTC", "ETH", "NOPE", "-e", "bithumb", "-f", "csv"], environment: environment(server))
        #expect(run.status == 1)
        #expect(server.requests.map(\.path) == ["/bithumb/public/ticker/ALL_KRW"])
        let lines = run.output.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines[2].hasPrefix("bithumb,ETH/KRW,ETH,KRW,3406000,"))
        #expect(run.errorLines == ["agg: bithumb NOPE/KRW: not listed"])
    }

    @Test(
        "faults give one line naming the venue and exit 1, within the time allowed",
        arguments: [
            (LoopbackReply.json("<html>oops</html>", status: 500), "HTTP 500 from"),
            (LoopbackReply.json("<html><body>maintenance</body></html>"), "the body is not JSON"),
            (LoopbackReply.json("{\"status\":\"5600\",\"message\":\"점검 중\"}"), "error 5600: 점검 중"),
            (LoopbackReply.json("{}"), "unexpected response at $.status"),
            (
                LoopbackReply.json(
                    "{\"status\":\"0000\",\"data\":{\"closing_price\":true,\"date\":\"1723104735027\"}}"),
                "$.data.closing_price: expected a decimal, found a boolean"
            ),
            (LoopbackReply.json(String(repeating: "9", count: 5000)), "unexpected response"),
            (
                LoopbackReply.json(
                    "{\"status\":\"0000\",\"data\":{\"closing_price\":\"" + String(repeating: "9", count: 5000)
                        + "\",\"date\":\"1723104735027\"}}"),
                "out of the range of exact decimals"
            ),
            (
                LoopbackReply.json(
                    "{\"status\":\"0000\",\"data\":{\"closing_price\":\"1e999999\",\"date\":\"1723104735027\"}}"),
                "has an exponent: a decimal written as text must be written out in full"
            ),
            (
                LoopbackReply.json("{\"status\":\"0000\",\"data\":{}}").withFault(.truncate(afterBytes: 10)),
                "connection"
            ),
            (LoopbackReply.status(200).withFault(.dropConnection), "connection"),
            (
                LoopbackReply.json("{}", status: 429).withHeader("Retry-After", "120"),
                "rate limited by bithumb, retry after 120 s"
            ),
        ])
    func faults(reply: LoopbackReply, message: String) async throws {
        let server = try FixtureServer(venues: ["bithumb"]) { _, _ in reply }
        let run = try await AggBinary.run(
            ["quote", "BTC", "-e", "bithumb", "-f", "json", "--timeout", "5"], environment: environment(server))
        #expect(run.status == 1)
        #expect(run.errorLines.count == 1)
        #expect(run.error.hasPrefix("agg: bithumb BTC/KRW: "))
        #expect(run.error.contains(message))
        #expect(run.seconds < 5)
    }

    @Test("a server that never answers is cut off by --timeout")
    func hang() async throws {
        let server = try FixtureServer(venues: ["bithumb"]) { _, _ in LoopbackReply.status(200).withFault(.hang) }
        let run = try await AggBinary.run(
            ["quote", "BTC", "-e", "bithumb", "-f", "json", "--timeout", "1"], environment: environment(server))
        #expect(run.status == 1)
        #expect(run.error.contains("no answer within 1 s"))
        // Without the timeout the run would never end; 5 s leaves room for a loaded machine.
        #expect(run.seconds < 5)
    }

    @Test("a 5xx is retried and the next answer is used")
    func retried() async throws {
        let failures = Counter()
        let server = try FixtureServer(venues: ["bithumb"]) { _, _ in
            failures.next() < 2 ? LoopbackReply.status(503) : nil
        }
        let run = try await AggBinary.run(
            ["quote", "BTC", "-e", "bithumb", "-f", "json"], environment: environment(server))
        #expect(run.status == 0)
        #expect(server.requests.count == 3)
    }

    @Test("bad input exits 64 before any request, with one line on stderr")
    func usage() async throws {
        let server = try FixtureServer(venues: ["bithumb"])
        for arguments in [
            ["quote", "../x", "-e", "bithumb"], ["quote", "BTC", "-e", "nope"], ["quote", "--frmat", "json"],
        ] {
            let run = try await AggBinary.run(arguments, environment: environment(server))
            #expect(run.status == 64)
            #expect(run.errorLines.count == 1)
            #expect(run.output.isEmpty)
        }
        #expect(server.requests.isEmpty)
    }

    @Test("--offline answers from Fixtures/ and says so")
    func offline() async throws {
        let run = try await AggBinary.run(
            ["quote", "BTC", "-e", "bithumb", "--offline", "-f", "json"],
            environment: ["AGG_FIXTURES": Fixtures.directory.path])
        #expect(run.status == 0)
        #expect(
            run.error
                == "agg: offline: bithumb answers from a recorded snapshot from 2024-08-08T08:12:15Z, with some sample data\n"
        )
        #expect(run.output.contains("\"last\":\"80630000\""))
    }
}

/// Counts calls across the server's threads.
final class Counter: Sendable {
    private let count = Mutex(0)

    /// The count before this call.
    func next() -> Int {
        count.withLock { value in
            defer { value += 1 }; return value
        }
    }
}
