import AggCore
import AggStore
import AggTestKit
import Foundation
import Testing

@testable import AggCLI

/// `agg events` run as the built binary over a store the events were written to.
@Suite("agg events: the binary")
struct EndToEndEventsTests {
    @Test("the built agg lists a store's events as CSV, and an unknown kind is exit 64 in one line")
    func binary() async throws {
        try await withTemporaryHome { home in
            let now = Timestamp.now.millisecondsSince1970 / 1000 * 1000
            let baseline = Timestamp(millisecondsSince1970: now - 120_000)
            let later = Timestamp(millisecondsSince1970: now - 60_000)
            let btc = EventFact(condition: .listed, symbol: "BTC", detail: "비트코인 / Bitcoin")
            let ada = EventFact(condition: .listed, symbol: "ADA", detail: "에이다, \"Cardano\"")
            let store = try Store.open(path: home + "/agg.sqlite")
            for (time, facts) in [(baseline, [btc]), (later, [btc, ada])] {
                _ = try await store.observe(
                    EventObservation(venue: "upbit", source: "markets", observedAt: time, facts: facts))
            }
            let run = try await AggBinary.run(
                ["events", "--since", "1h", "--format", "csv"], environment: ["AGG_HOME": home])
            #expect(run.status == 0)
            #expect(run.error == "")
            #expect(
                run.output
                    == "first_observed,venue,kind,symbol,network,detail,venue_time\n"
                    + "\(later),upbit,listed,ADA,,\"에이다, \"\"Cardano\"\"\",\n")
            let bad = try await AggBinary.run(["events", "--kind", "bogus"], environment: ["AGG_HOME": home])
            #expect(bad.status == 64)
            #expect(
                bad.errorLines == [
                    "agg: invalid --kind 'bogus': expected one or more of: listed, delisted, caution_on, caution_off, "
                        + "warning_on, warning_off, notice, deposit_closed, deposit_open, withdraw_closed, withdraw_open"
                ])
            #expect(bad.output == "")
        }
    }
}
