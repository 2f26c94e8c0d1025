import AggCore
import AggStore
import AggTestKit
import Foundation
import Testing

@testable import AggCLI

/// `--alert` on `agg record`: rules evaluated on every recorded tick, fired once per crossing,
/// their state kept in the history store so that a restarted recorder does not fire again.
@Suite("agg record --alert")
struct RecordAlertTests {
    let loop = RecordServiceTests()

    @Test("a rule fires on the first tick it holds, not on the next ones, nor after a restart on the same store")
    func firesOnceAcrossRestarts() async throws {
        let harness = try RecordServiceTests.Harness(venues: ["upbit", "exchangerate"])
        defer { harness.cleanUp() }
        let arguments = [
            "BTC", "--exchange", "upbit", "--count", "3", "--quiet", "--alert", "upbit:BTC last > 80000000",
        ]
        let first = try await loop.command(arguments, harness: harness)
        #expect(first.status == .success)
        #expect(first.error == "agg: alert: upbit BTC last 80651000 (rule upbit:BTC last > 80000000)\n")

        let restarted = try await loop.command(arguments, harness: harness)
        #expect(restarted.status == .success)
        #expect(restarted.error == "")
        let store = try harness.store()
        let states = try await store.alertStates()
        #expect(states.map(\.rule) == ["upbit:BTC last > 80000000"])
        #expect(states.map(\.active) == [true])

        let never = try await loop.command(
            ["BTC", "--exchange", "upbit", "--count", "2", "--quiet", "--alert", "BTC last < 1"], harness: harness)
        #expect(never.error == "")
    }

    @Test("--notify: the alert is POSTed to the webhook, the --alert-log object plus its words, before record ends")
    func notify() async throws {
        let hook = try LoopbackServer { _ in .status(204) }
        let harness = try RecordServiceTests.Harness(venues: ["upbit", "exchangerate"])
        defer { harness.cleanUp() }
        let run = try await loop.command(
            [
                "BTC", "--exchange", "upbit", "--count", "2", "--quiet", "--alert", "upbit:BTC last > 80000000",
                "--notify", hook.baseURL + "/hook",
            ], harness: harness)
        #expect(run.status == .success)
        #expect(run.error == "agg: alert: upbit BTC last 80651000 (rule upbit:BTC last > 80000000)\n")
        #expect(hook.requests.map(\.path) == ["/hook"])
        #expect(
            hook.requests.map { String(decoding: $0.body, as: UTF8.self) } == [
                #"{"time":"2027-01-15T08:00:00.000Z","rule":"upbit:BTC last > 80000000","exchange":"upbit","symbol":"BTC","field":"last","value":"80651000","threshold":"80000000","text":"agg alert: upbit BTC last 80651000 (rule upbit:BTC last > 80000000)"}"#
            ])
    }

    @Test("--alert-log gets one JSON line per alert, with the tick's time")
    func alertLog() async throws {
        let harness = try RecordServiceTests.Harness(venues: ["upbit", "exchangerate"])
        defer { harness.cleanUp() }
        let log = harness.home + "-alerts.jsonl"
        defer { try? FileManager.default.removeItem(atPath: log) }
        let run = try await loop.command(
            [
                "BTC", "--exchange", "upbit", "--count", "2", "--quiet", "--alert", "BTC last >= 80651000",
                "--alert-log", log,
            ], harness: harness)
        #expect(run.status == .success)
        #expect(
            try String(contentsOfFile: log, encoding: .utf8)
                == #"{"time":"2027-01-15T08:00:00.000Z","rule":"BTC last >= 80651000","exchange":"upbit","symbol":"BTC","field":"last","value":"80651000","threshold":"80651000"}"#
                + "\n")
    }

    @Test("a rule record cannot evaluate is a usage error before any request")
    func usage() async throws {
        let harness = try RecordServiceTests.Harness(venues: ["upbit", "binance", "exchangerate"])
        defer { harness.cleanUp() }
        await #expect(
            throws: AggError.usage(
                "--alert 'upbit:BTC premium > 3%': agg record has no premium (premiums need --premium; change is on agg watch)"
            )
        ) {
            _ = try await loop.command(["BTC", "--count", "1", "--alert", "upbit:BTC premium > 3%"], harness: harness)
        }
        await #expect(throws: AggError.usage("--alert 'ETH last > 1': ETH is not among the symbols asked (BTC)")) {
            _ = try await loop.command(["BTC", "--count", "1", "--alert", "ETH last > 1"], harness: harness)
        }
        #expect(harness.server.requests.isEmpty)
    }
}
