import AggTestKit
import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The `agg serve` binary: it starts, answers from its first poll, and stops cleanly on a stop
/// signal; beyond loopback it refuses to start without a token.
@Suite("agg serve end to end")
struct EndToEndServeTests {
    @Test("SIGTERM and SIGINT stop the server cleanly: exit 0, and the port is closed", arguments: [SIGTERM, SIGINT])
    func stopSignal(signal: Int32) async throws {
        let fixtures = try FixtureServer()
        defer { fixtures.stop() }
        var environment = fixtures.environment
        environment["AGG_HOME"] = try temporaryDirectory().appendingPathComponent("home").path
        let (process, _, error) = try AggBinary.start(
            ["serve", "--listen", "127.0.0.1:0", "--exchange", "bithumb,binance", "--fx", "exchangerate"],
            environment: environment)
        let stderr = PipeText(error)
        #expect(await stderr.wait(seconds: 10) { $0.contains("polling") })
        let line = stderr.value.split(separator: "\n").first.map(String.init) ?? ""
        let port = try #require(
            line.split(separator: ":").last.flatMap { Int($0.split(separator: ",").first ?? "") })
        #expect(line == "agg: serving on http://127.0.0.1:\(port), polling 3 sources every 5 s")
        var health = 0
        for _ in 0..<200 where health != 200 {
            health = (try? await RawHTTPClient.get(port: port, "/healthz").status) ?? 0
            if health != 200 { try await Task.sleep(for: .milliseconds(25)) }
        }
        #expect(health == 200)
        let quote = try await RawHTTPClient.get(port: port, "/v1/quote?symbol=BTC&exchange=bithumb")
        #expect(quote.text.contains(#""last":"80630000""#))
        kill(process.processIdentifier, signal)
        let status: Int32 = await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                process.waitUntilExit()
                continuation.resume(returning: process.terminationStatus)
            }
        }
        #expect(process.terminationReason == .exit)
        #expect(status == 0)
        #expect(await stderr.wait(seconds: 5) { $0.hasSuffix("agg: stopped\n") })
        await #expect(throws: RawHTTPClient.Failure.self) { try await RawHTTPClient.get(port: port, "/healthz") }
    }

    @Test("beyond loopback without a token: exit 64 and one line, before listening")
    func refusesWithoutToken() async throws {
        let run = try await AggBinary.run(["serve", "--listen", "0.0.0.0:0"], environment: ["AGG_TOKEN": ""])
        #expect(run.status == 64)
        #expect(run.error == "agg: listening on 0.0.0.0:0 beyond loopback needs --token or AGG_TOKEN\n")
        #expect(run.output.isEmpty)
    }

    @Test("a short token is refused")
    func shortToken() async throws {
        let run = try await AggBinary.run(["serve", "--listen", "0.0.0.0:0", "--token", "short"])
        #expect(run.status == 64)
        #expect(run.error == "agg: invalid --token 'short': expected a token of 16 to 256 printable characters\n")
    }
}
