import AggCore
import AggJSON
import AggTestKit
import Foundation
import Testing

@testable import AggServices

#if canImport(Glibc)
    import Glibc
#endif

/// The real `agg` binary: an alert reaches a webhook (a loopback receiver) as the documented
/// POST, the same object `--alert-log` writes plus its words, signed.
@Suite("--notify end to end")
struct EndToEndNotifyTests {
    @Test("watch --alert --notify: one POST with the documented payload and signature, before agg exits")
    func watchNotifiesWebhook() async throws {
        let fixtures = try FixtureServer(venues: ["upbit"])
        defer { fixtures.stop() }
        let hook = try LoopbackServer { _ in .json(#"{"received":true}"#) }
        let directory = try temporaryDirectory()
        let log = directory.appendingPathComponent("alerts.jsonl").path
        let secretFile = directory.appendingPathComponent("hook.secret").path
        try "s3cret-key\n".write(toFile: secretFile, atomically: true, encoding: .utf8)
        var environment = fixtures.environment
        environment["AGG_HOME"] = directory.appendingPathComponent("home").path
        environment["XDG_CONFIG_HOME"] = directory.path

        let run = try await AggBinary.run(
            [
                "watch", "BTC", "-e", "upbit", "--count", "1", "-f", "json", "--alert", "BTC last > 1", "--alert-log",
                log, "--notify", hook.baseURL + "/hook", "--notify-secret-file", secretFile,
            ], environment: environment)
        #expect(run.status == 0, "\(run.error)")
        let logged = try String(contentsOfFile: log, encoding: .utf8)
        let line = try #require(logged.split(separator: "\n").first.map(String.init))
        let words = try #require(run.error.split(separator: "\n").first.map(String.init))
        #expect(words.hasPrefix("agg: alert: upbit BTC last "))

        #expect(hook.requests.count == 1)
        let request = try #require(hook.requests.first)
        #expect(request.method == "POST")
        #expect(request.path == "/hook")
        #expect(request.header("Content-Type") == "application/json")
        // The --alert-log object, then "text": the stderr line's words.
        let text = "agg alert: " + words.dropFirst("agg: alert: ".count)
        #expect(String(decoding: request.body, as: UTF8.self) == String(line.dropLast()) + #","text":"\#(text)"}"#)
        let mac = NotifySignature.hmacSHA256(key: Array("s3cret-key".utf8), message: request.body)
        #expect(request.header("X-Agg-Signature") == "sha256=" + NotifySignature.hex(mac))
        #expect(!run.error.contains("s3cret-key"))
    }

    @Test("serve --alert --notify: the first poll's board fires the rule, the webhook gets it, SIGTERM exits 0")
    func serveNotifiesWebhook() async throws {
        let fixtures = try FixtureServer()
        defer { fixtures.stop() }
        let hook = try LoopbackServer { _ in .status(204) }
        var environment = fixtures.environment
        environment["AGG_HOME"] = try temporaryDirectory().appendingPathComponent("home").path
        let (process, _, error) = try AggBinary.start(
            [
                "serve", "--no-stream", "--listen", "127.0.0.1:0", "--exchange", "bithumb,binance", "--fx",
                "exchangerate",
                "--alert", "bithumb:BTC last > 1", "--notify", hook.baseURL + "/hook",
            ], environment: environment)
        let stderr = PipeText(error)
        #expect(await stderr.wait(seconds: 30) { $0.contains("agg: alert: bithumb BTC last 80630000") })
        for _ in 0..<400 where hook.requests.isEmpty { try await Task.sleep(for: .milliseconds(25)) }
        kill(process.processIdentifier, SIGTERM)
        let status: Int32 = await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                process.waitUntilExit()
                continuation.resume(returning: process.terminationStatus)
            }
        }
        #expect(status == 0, "\(stderr.value)")
        #expect(hook.requests.count == 1)
        let body = JSONCursor(try JSONParser.parse(try #require(hook.requests.first).body))
        #expect(try body["rule"].string() == "bithumb:BTC last > 1")
        #expect(try body["value"].string() == "80630000")
        #expect(try body["text"].string() == "agg alert: bithumb BTC last 80630000 (rule bithumb:BTC last > 1)")
    }
}
