import AggCore
import AggJSON
import AggTestKit
import Foundation
import Testing

@testable import AggServices

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
}
