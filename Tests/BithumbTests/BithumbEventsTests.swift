import AggCore
import AggTestKit
import Testing

@testable import Bithumb

private let bed = AdapterTestBed(BithumbAdapter.self)
private let first = Timestamp(secondsSince1970: 1_796_300_000)
private let second = Timestamp(secondsSince1970: 1_796_300_300)

/// The observation of `source` against `Fixtures/bithumb` (its second versions with `next`).
private func observe(_ source: String, next: Bool = false, at time: Timestamp = first) async throws
    -> EventObservation
{
    try await bed.adapter(try Fixtures.client("bithumb", baseURL: bed.baseURL, next: next)).events(
        from: source, at: time)
}

/// The events of `source` from the fixture's first version (the baseline) to its second.
private func eventsBetweenVersions(_ source: String) async throws -> [MarketEvent] {
    let baseline = EventDiff.transition(from: nil, to: try await observe(source))
    #expect(baseline.events == [])
    return EventDiff.transition(from: baseline.state, to: try await observe(source, next: true, at: second)).events
}

/// The observation of `source` when Bithumb answers `body`.
private func observe(_ source: String, body: String) async throws -> EventObservation {
    try await bed.adapter(ScriptedHTTPClient(body: body)).events(from: source, at: first)
}

private func instant(_ iso: String) -> Timestamp? { Timestamp(iso8601: iso) }

@Suite("Bithumb's event sources: markets, warnings, notices, transfers")
struct BithumbEventsTests {
    @Test(
        "the descriptor: events declared; markets and warnings every 5 min, notices every minute and at most once a second"
    )
    func sources() {
        let sources = BithumbAdapter.descriptor.eventSources
        #expect(BithumbAdapter.descriptor.supports(.events))
        #expect(sources.map(\.id) == ["markets", "warnings", "notices", "transfers"])
        #expect(sources.map(\.reader) == [.adapter, .adapter, .adapter, .transferStatus])
        #expect(sources.map(\.interval) == [.seconds(300), .seconds(300), .seconds(60), .seconds(300)])
        #expect(sources[2].minimumInterval == .seconds(1))
        #expect(sources[2].interval(asked: .milliseconds(200)) == .seconds(1))
    }

    @Test("markets: one request to market/all?isDetails=true; listed per coin, warning when market_warning is CAUTION")
    func markets() async throws {
        let client = try bed.recorded()
        let observation = try await bed.adapter(client).events(from: "markets", at: first)
        #expect(client.requests.map(\.url) == [bed.baseURL + "/v1/market/all?isDetails=true"])
        #expect(
            observation
                == EventObservation(
                    venue: "bithumb", source: "markets", observedAt: first,
                    facts: [
                        EventFact(condition: .listed, symbol: "BTC", detail: "비트코인 / Bitcoin"),
                        EventFact(condition: .listed, symbol: "ETH", detail: "이더리움 / Ethereum"),
                        EventFact(condition: .listed, symbol: "XRP", detail: "리플 / XRP"),
                        EventFact(condition: .warning, symbol: "XRP", detail: "리플 / XRP"),
                        EventFact(condition: .listed, symbol: "SOL", detail: "솔라나 / Solana"),
                    ]))
    }

    @Test("warnings: a caution per coin and type, detail the step and the end in KST")
    func warnings() async throws {
        let client = try bed.recorded()
        let observation = try await bed.adapter(client).events(from: "warnings", at: first)
        #expect(client.requests.map(\.url) == [bed.baseURL + "/v1/market/virtual_asset_warning"])
        #expect(
            observation.facts == [
                EventFact(
                    condition: .caution, symbol: "XRP", subject: "PRICE_SUDDEN_FLUCTUATION",
                    detail: "CAUTION until 2026-12-04 23:59:59 KST"),
                EventFact(
                    condition: .caution, symbol: "SOL", subject: "TRADING_VOLUME_SUDDEN_FLUCTUATION",
                    detail: "WARNING until 2026-12-05 01:59:59 KST"),
                EventFact(
                    condition: .caution, symbol: "ETH", subject: "PRICE_DIFFERENCE_HIGH",
                    detail: "DANGER until 2026-12-04 11:59:59 KST"),
            ])
        #expect(observation.skipped == [])
    }

    @Test("notices: one request for the 20 newest; subject the link (no id), time published_at in KST")
    func notices() async throws {
        let client = try bed.recorded()
        let observation = try await bed.adapter(client).events(from: "notices", at: first)
        #expect(client.requests.map(\.url) == [bed.baseURL + "/v1/notices?count=20"])
        #expect(
            observation.facts == [
                EventFact(
                    condition: .notice, symbol: nil, subject: "https://feed.bithumb.com/notice/1651200",
                    detail: "[안내] 원화 마켓 신규 상장 예정 안내 — https://feed.bithumb.com/notice/1651200",
                    venueTime: instant("2026-12-03T08:30:00Z")),
                EventFact(
                    condition: .notice, symbol: nil, subject: "https://feed.bithumb.com/notice/1651190",
                    detail: "[입출금] 솔라나(SOL) 입금 일시 중단 안내 — https://feed.bithumb.com/notice/1651190",
                    venueTime: instant("2026-12-03T06:05:12Z")),
                EventFact(
                    condition: .notice, symbol: nil, subject: "https://feed.bithumb.com/notice/1651180",
                    detail: "[점검] 서비스 정기 점검 안내 — https://feed.bithumb.com/notice/1651180",
                    venueTime: instant("2026-12-02T00:00:00Z")),
            ])
    }

    @Test("transfers (generic): a closed fact per coin, network and direction from the classic transfer status")
    func transfers() async throws {
        let observation = try await observe("transfers")
        #expect(
            observation.facts == [
                EventFact(condition: .withdrawClosed, symbol: "USDT", network: "TRX"),
                EventFact(condition: .depositClosed, symbol: "XRP", network: "XRP"),
                EventFact(condition: .withdrawClosed, symbol: "XRP", network: "XRP"),
                EventFact(condition: .depositClosed, symbol: "SOL", network: "SOL"),
            ])
        #expect(observation.unread == [])
    }

    @Test("the fixtures' second versions against their first: exactly these events, per source")
    func secondVersions() async throws {
        #expect(
            try await eventsBetweenVersions("markets") == [
                MarketEvent(
                    venue: "bithumb", kind: .listed, symbol: "DOGE", detail: "도지코인 / Dogecoin", firstObserved: second),
                MarketEvent(
                    venue: "bithumb", kind: .delisted, symbol: "SOL", detail: "솔라나 / Solana", firstObserved: second),
                MarketEvent(
                    venue: "bithumb", kind: .warningOn, symbol: "DOGE", detail: "도지코인 / Dogecoin",
                    firstObserved: second),
                MarketEvent(
                    venue: "bithumb", kind: .warningOff, symbol: "XRP", detail: "리플 / XRP", firstObserved: second),
            ])
        // ETH's step going from DANGER to CAUTION is the same caution: no event.
        #expect(
            try await eventsBetweenVersions("warnings") == [
                MarketEvent(
                    venue: "bithumb", kind: .cautionOn, symbol: "BTC", subject: "DEPOSIT_AMOUNT_SUDDEN_FLUCTUATION",
                    detail: "CAUTION until 2026-12-05 23:59:59 KST", firstObserved: second),
                MarketEvent(
                    venue: "bithumb", kind: .cautionOff, symbol: "XRP", subject: "PRICE_SUDDEN_FLUCTUATION",
                    detail: "CAUTION until 2026-12-04 23:59:59 KST", firstObserved: second),
            ])
        // The oldest notice dropping off the list is no event.
        #expect(
            try await eventsBetweenVersions("notices") == [
                MarketEvent(
                    venue: "bithumb", kind: .notice, symbol: nil, subject: "https://feed.bithumb.com/notice/1651210",
                    detail: "[거래지원] 도지코인(DOGE) 원화 마켓 추가 — https://feed.bithumb.com/notice/1651210",
                    firstObserved: second, venueTime: instant("2026-12-03T09:00:00Z"))
            ])
        #expect(
            try await eventsBetweenVersions("transfers") == [
                MarketEvent(venue: "bithumb", kind: .depositOpen, symbol: "XRP", network: "XRP", firstObserved: second),
                MarketEvent(
                    venue: "bithumb", kind: .withdrawClosed, symbol: "BTC", network: "BTC", firstObserved: second),
            ])
    }

    @Test("a warning row whose step, end or type does not read is skipped and counted, its coin unread")
    func damagedWarnings() async throws {
        let body = """
            [{"market":"KRW-XRP","warning_type":"PRICE_SUDDEN_FLUCTUATION","warning_step":"SEVERE","end_date":"2026-12-04 23:59:59"},
            {"market":"KRW-SOL","warning_type":"PRICE_DIFFERENCE_HIGH","warning_step":"CAUTION","end_date":"2026/12/04"},
            {"market":"KRW-ADA","warning_type":"","end_date":"2026-12-04 23:59:59"},
            {"market":"KRW-ETH","warning_type":"PRICE_DIFFERENCE_HIGH","end_date":"2026-12-04T11:59:59"}]
            """
        let observation = try await observe("warnings", body: body)
        #expect(
            observation.facts == [
                EventFact(
                    condition: .caution, symbol: "ETH", subject: "PRICE_DIFFERENCE_HIGH",
                    detail: "until 2026-12-04T11:59:59 KST")
            ])
        #expect(
            observation.skipped.map(\.description) == [
                "bithumb: skipped KRW-XRP: unexpected response at $[0].warning_step: expected one of CAUTION, DANGER, WARNING, found 'SEVERE'",
                "bithumb: skipped KRW-SOL: unexpected response at $[1].end_date: expected 'yyyy-MM-dd HH:mm:ss' (KST), found '2026/12/04'",
                "bithumb: skipped KRW-ADA: unexpected response at $[2].warning_type: expected an upper-case warning type, found ''",
            ])
        #expect(observation.unread == ["XRP", "SOL", "ADA"])
    }

    @Test("a notice with an id is told apart by it; one without a title or a readable time is skipped")
    func damagedNotices() async throws {
        let body = """
            [{"id":1651300,"title":"새 공지","pc_url":"https://feed.bithumb.com/notice/1651300","published_at":"2026-12-03T18:00:00+09:00"},
            {"pc_url":"https://feed.bithumb.com/notice/1651299","published_at":"2026-12-03 17:00:00"},
            {"title":"시간 없음","pc_url":"https://feed.bithumb.com/notice/1651298","published_at":"어제"}]
            """
        let observation = try await observe("notices", body: body)
        #expect(
            observation.facts == [
                EventFact(
                    condition: .notice, symbol: nil, subject: "1651300",
                    detail: "새 공지 — https://feed.bithumb.com/notice/1651300",
                    venueTime: instant("2026-12-03T09:00:00Z"))
            ])
        #expect(
            observation.skipped.map(\.description) == [
                "bithumb: skipped [1]: unexpected response at $[1].title: expected a string, found nothing",
                "bithumb: skipped 시간 없음: unexpected response at $[2].published_at: expected 'yyyy-MM-dd HH:mm:ss' (KST), found '어제'",
            ])
    }

    @Test("an unknown source is a usage error naming the venue's sources, before any request")
    func unknownSource() async throws {
        let client = try bed.recorded()
        await #expect(
            throws: AggError.usage(
                "bithumb has no event source 'alerts'; it has: markets, warnings, notices, transfers")
        ) {
            try await bed.adapter(client).events(from: "alerts", at: first)
        }
        #expect(client.requests.isEmpty)
    }
}
