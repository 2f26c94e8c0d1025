import AggCore
import AggTestKit
import Testing

@testable import Upbit

private let bed = AdapterTestBed(UpbitAdapter.self)
private let first = Timestamp(secondsSince1970: 1_796_300_000)
private let second = Timestamp(secondsSince1970: 1_796_300_300)

private let btc = "비트코인 / Bitcoin"
private let eth = "이더리움 / Ethereum"
private let xrp = "엑스알피(리플) / XRP"
private let sol = "솔라나 / Solana"
private let grs = "그로스톨코인 / Groestlcoin"

/// Upbit's `markets` source against `Fixtures/upbit/market_all_details.json` (its second
/// version with `next`).
private func observe(next: Bool, at time: Timestamp) async throws -> EventObservation {
    try await bed.adapter(try Fixtures.client("upbit", baseURL: bed.baseURL, next: next)).events(
        from: "markets", at: time)
}

@Suite("Upbit's event source: markets, from market/all?isDetails=true")
struct UpbitEventsTests {
    @Test("one request; per coin: listed with its names, a warning, a caution per true cause of any of its markets")
    func facts() async throws {
        let client = try bed.recorded()
        let observation = try await bed.adapter(client).events(from: "markets", at: first)
        #expect(client.requests.map(\.url) == [bed.baseURL + "/v1/market/all?isDetails=true"])
        #expect(
            observation
                == EventObservation(
                    venue: "upbit", source: "markets", observedAt: first,
                    facts: [
                        EventFact(condition: .listed, symbol: "BTC", detail: btc),
                        EventFact(condition: .listed, symbol: "ETH", detail: eth),
                        EventFact(condition: .listed, symbol: "XRP", detail: xrp),
                        EventFact(condition: .caution, symbol: "XRP", subject: "GLOBAL_PRICE_DIFFERENCES", detail: xrp),
                        EventFact(condition: .caution, symbol: "XRP", subject: "TRADING_VOLUME_SOARING", detail: xrp),
                        EventFact(condition: .listed, symbol: "SOL", detail: sol),
                        EventFact(condition: .listed, symbol: "GRS", detail: grs),
                        EventFact(condition: .warning, symbol: "GRS", detail: grs),
                    ]))
    }

    @Test("the descriptor declares events and one source, markets, every 5 minutes; no transfers (all unknown)")
    func sources() {
        #expect(UpbitAdapter.descriptor.supports(.events))
        #expect(UpbitAdapter.descriptor.eventSources.map(\.id) == ["markets"])
        #expect(UpbitAdapter.descriptor.eventSources.map(\.interval) == [.seconds(300)])
        #expect(UpbitAdapter.descriptor.eventSources.map(\.minimumInterval) == [.milliseconds(100)])
    }

    @Test("the primitive asked for a source Upbit does not have is unsupported, without a request")
    func otherSource() async throws {
        let client = try bed.recorded()
        let notices = EventSource(
            id: "notices", reader: .adapter, interval: .seconds(60), minimumInterval: .seconds(1), summary: "")
        await #expect(throws: AggError.unsupported(venue: "upbit", capability: .events)) {
            try await bed.adapter(client).fetchEvents(notices, at: first)
        }
        #expect(client.requests.isEmpty)
    }

    @Test("an entry whose flags do not read is skipped and counted, its coin unread; the others answer")
    func damagedEntry() async throws {
        let body = """
            [{"market":"KRW-BTC","korean_name":"비트코인","english_name":"Bitcoin",\
            "market_event":{"warning":false,"caution":{"PRICE_FLUCTUATIONS":"yes"}}},
            {"market":"KRW-ETH","korean_name":"이더리움","english_name":"Ethereum"},
            {"market":"KRW-SOL","korean_name":"솔라나","english_name":"Solana",\
            "market_event":{"warning":true,"caution":{"PRICE_FLUCTUATIONS":false}}}]
            """
        let observation = try await bed.adapter(ScriptedHTTPClient(body: body)).events(from: "markets", at: first)
        #expect(
            observation.facts == [
                EventFact(condition: .listed, symbol: "SOL", detail: sol),
                EventFact(condition: .warning, symbol: "SOL", detail: sol),
            ])
        #expect(
            observation.skipped == [
                SkippedEntry(
                    venue: "upbit", entry: "KRW-BTC", market: Market(base: "BTC", quote: "KRW"),
                    path: "$[0].market_event.caution.PRICE_FLUCTUATIONS", reason: "expected a boolean, found a string"),
                SkippedEntry(
                    venue: "upbit", entry: "KRW-ETH", market: Market(base: "ETH", quote: "KRW"),
                    path: "$[1].market_event.warning", reason: "expected a boolean, found nothing"),
            ])
        #expect(observation.unread == ["BTC", "ETH"])
        // BTC and ETH were listed: unread, they are not delisted.
        let before = [
            EventFact(condition: .listed, symbol: "BTC", detail: btc),
            EventFact(condition: .listed, symbol: "ETH", detail: eth),
        ]
        let transition = EventDiff.transition(from: before, to: observation)
        #expect(
            transition.events == [
                MarketEvent(venue: "upbit", kind: .listed, symbol: "SOL", detail: sol, firstObserved: first),
                MarketEvent(venue: "upbit", kind: .warningOn, symbol: "SOL", detail: sol, firstObserved: first),
            ])
        #expect(
            transition.state.map(\.identity.key) == ["listed|BTC||", "listed|ETH||", "listed|SOL||", "warning|SOL||"])
    }

    @Test("an empty list is no observation (a glitch, not every coin delisted)")
    func emptyList() async {
        await #expect(
            throws: AggError.decoding(venue: "upbit", path: "$", detail: "the market list names no market")
        ) { try await bed.adapter(ScriptedHTTPClient(body: "[]")).events(from: "markets", at: first) }
    }

    @Test(
        "the fixture's second version against its first: ADA listed, SOL delisted, ETH cautioned, XRP's cause and GRS's warning lifted"
    )
    func secondVersion() async throws {
        let baseline = EventDiff.transition(from: nil, to: try await observe(next: false, at: first))
        #expect(baseline.events == [])
        let transition = EventDiff.transition(from: baseline.state, to: try await observe(next: true, at: second))
        #expect(
            transition.events == [
                MarketEvent(
                    venue: "upbit", kind: .cautionOn, symbol: "ETH", subject: "PRICE_FLUCTUATIONS", detail: eth,
                    firstObserved: second),
                MarketEvent(
                    venue: "upbit", kind: .cautionOff, symbol: "XRP", subject: "GLOBAL_PRICE_DIFFERENCES", detail: xrp,
                    firstObserved: second),
                MarketEvent(
                    venue: "upbit", kind: .listed, symbol: "ADA", detail: "에이다 / Cardano", firstObserved: second),
                MarketEvent(venue: "upbit", kind: .delisted, symbol: "SOL", detail: sol, firstObserved: second),
                MarketEvent(venue: "upbit", kind: .warningOff, symbol: "GRS", detail: grs, firstObserved: second),
            ])
        #expect(
            EventDiff.transition(from: transition.state, to: try await observe(next: true, at: second)).events == [])
    }
}
