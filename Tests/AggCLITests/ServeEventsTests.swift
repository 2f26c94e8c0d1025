import AggCore
import AggServer
import AggStore
import Foundation
import Testing

@testable import AggCLI
@testable import AggServe

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

    /// The kind (`event`, `board`) of a streamed event's bytes.
    static func kind(_ next: EventSubscription.Next?) -> String {
        guard case .event(let bytes)? = next else { return "\(String(describing: next))" }
        let text = String(decoding: bytes, as: UTF8.self)
        return String(text.split(separator: "\n").first?.dropFirst("event: ".count) ?? "")
    }

    @Test("/v1/stream: each event stored after the server started is one SSE event, before its poll's board, once")
    func stream() async throws {
        try await withTemporaryHome { home in
            // Stored at 08:01 and 08:02, before the server starts (08:10): /v1/events has them.
            try await EventsCommandTests.fill(home)
            let store = try Store.open(path: home + "/agg.sqlite")
            let harness = try ServeHarness(history: store, now: { EventsCommandTests.now })
            let subscription = try #require(harness.runtime.streams.subscribe())
            defer { subscription.cancel() }
            await harness.poll()
            #expect(Self.kind(subscription.next(waiting: 5)) == "board")
            _ = try await store.observe(
                EventObservation(
                    venue: "upbit", source: "markets", observedAt: EventsCommandTests.time(660),
                    facts: [EventFact(condition: .listed, symbol: "BTC", detail: "비트코인 / Bitcoin")]))
            await harness.poll()
            #expect(
                subscription.next(waiting: 5)
                    == .event(
                        ServerSentEvent(
                            event: "event", id: "1800000660000",
                            data:
                                #"{"venue":"upbit","kind":"delisted","symbol":"ADA","network":null,"detail":"에이다 / Cardano","firstObserved":"2027-01-15T08:11:00.000Z","venueTime":null}"#
                        ).wire))
            #expect(Self.kind(subscription.next(waiting: 5)) == "board")
            await harness.poll()
            #expect(Self.kind(subscription.next(waiting: 5)) == "board")
        }
    }
}
