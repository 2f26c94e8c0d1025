import AggCore
import AggJSON
import AggTestKit
import Foundation
import Testing

/// The real `agg` binary against the loopback server, whose Bithumb BTC price rises between the
/// two refreshes: the alert fires exactly once, through all three deliveries.
@Suite("alerts end to end")
struct EndToEndAlertTests {
    @Test("watch --alert: one stderr line, one --alert-log line, one --on-alert run with the same JSON")
    func watchAlert() async throws {
        let routes = try Fixtures.routes("bithumb")
        let calls = CallCounter()
        let server = try FixtureServer(venues: ["bithumb"]) { venue, request in
            guard venue == "bithumb", let answer = try? routes.answer(path: request.path, query: request.query)
            else { return nil }
            let body = String(decoding: answer.body, as: UTF8.self)
            let edited =
                calls.next() == 1
                ? body
                : body.replacingOccurrences(
                    of: "\"closing_price\":\"80630000\"", with: "\"closing_price\":\"80631000\"")
            return LoopbackReply(status: answer.status, headers: answer.headers, body: Array(edited.utf8))
        }
        defer { server.stop() }
        let directory = try temporaryDirectory()
        let log = directory.appendingPathComponent("alerts.jsonl").path
        let received = directory.appendingPathComponent("received.json").path
        let hook = directory.appendingPathComponent("hook").path
        try "#!/bin/sh\ncat >> \"$1\"\n".write(toFile: hook, atomically: true, encoding: .utf8)
        chmod(hook, 0o755)
        var environment = server.environment
        environment["AGG_HOME"] = directory.appendingPathComponent("home").path
        environment["XDG_CONFIG_HOME"] = directory.path

        let run = try await AggBinary.run(
            [
                "watch", "BTC", "-e", "bithumb", "-i", "1", "-c", "2", "-f", "json", "--alert", "BTC last > 80630500",
                "--alert-log", log, "--on-alert", hook, "--on-alert-arg", received,
            ], environment: environment)
        #expect(run.status == 0, "\(run.error)")
        #expect(run.error == "agg: alert: bithumb BTC last 80631000 (rule BTC last > 80630500)\n")
        #expect(run.output.split(separator: "\n").count == 2)
        #expect(server.requests.count == 2)

        let logged = try String(contentsOfFile: log, encoding: .utf8)
        #expect(logged.hasSuffix("}\n") && logged.filter { $0 == "\n" }.count == 1)
        let alert = JSONCursor(try JSONParser.parse(logged))
        #expect(
            try alert.members().map(\.key) == ["time", "rule", "exchange", "symbol", "field", "value", "threshold"])
        #expect(try alert["rule"].string() == "BTC last > 80630500")
        #expect(try alert["exchange"].string() == "bithumb")
        #expect(try alert["symbol"].string() == "BTC")
        #expect(try alert["field"].string() == "last")
        #expect(try alert["value"].string() == "80631000")
        #expect(try alert["threshold"].string() == "80630500")
        // agg waits for the program before it exits: what it read is the logged line.
        #expect(try String(contentsOfFile: received, encoding: .utf8) == logged)
    }
}
