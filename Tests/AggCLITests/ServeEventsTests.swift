import AggCore
import AggServer
import AggStore
import Foundation
import Testing

@testable import AggCLI

/// `/v1/events` on `agg serve`: the history store's events, the very bytes `agg events
/// --format json` prints for the same query.
@Suite("agg serve: /v1/events")
struct ServeEventsTests {
    @Test("/v1/events answers what agg events --format json prints, filtered the same way; bad queries are 400")
    func events() async throws {
        try await withTemporaryHome { home in
            try await EventsCommandTests.fill(home)
            let store = try Store.open(path: home + "/agg.sqlite")
            let harness = try ServeHarness(history: store, now: { EventsCommandTests.now })
            for (query, arguments) in [
                ("", [String]()),
                ("?kind=listed,notice&since=1h", ["--kind", "listed,notice", "--since", "1h"]),
                ("?venue=upbit&symbol=xrp", ["-e", "upbit", "XRP"]),
                ("?since=2027-01-15T08:02Z", ["--since", "2027-01-15T08:02Z"]),
            ] {
                let answer = try await harness.get("/v1/events" + query)
                #expect(answer.status == 200, "\(query)")
                let cli = await runCLI(
                    ["events", "--format", "json"] + arguments, environment: ["AGG_HOME": home],
                    now: EventsCommandTests.now)
                #expect(cli.status == 0)
                #expect(answer.text == cli.output, "\(query)")
            }
            let bithumb = try await harness.get("/v1/events?venue=bithumb")
            #expect(
                bithumb.text
                    == #"[{"venue":"bithumb","kind":"notice","symbol":null,"network":null,"detail":"점검\n\"긴급\", \u001b]0;pwned\u0007","firstObserved":"2027-01-15T08:02:00.000Z","venueTime":"2027-01-15T08:01:30.000Z"}]"#
                    + "\n")
            let kinds = MarketEventKind.allCases.map(\.rawValue).joined(separator: ", ")
            for (query, message) in [
                ("?kind=listing", "invalid --kind 'listing': expected one or more of: \(kinds)"),
                ("?colour=red", "unknown query parameter 'colour'; this endpoint takes kind, since, symbol, venue"),
                ("?venue=nope", "unknown exchange 'nope'"),
            ] {
                let bad = try await harness.get("/v1/events" + query)
                #expect(bad.status == 400, "\(query)")
                if query == "?venue=nope" {
                    #expect(bad.text.contains("unknown exchange 'nope'"))
                } else {
                    #expect(bad.text == HTTPServerResponse.errorText(400, message))
                }
            }
            let none = try ServeHarness()
            #expect((try await none.get("/v1/events")).status == 404)
        }
    }
}
