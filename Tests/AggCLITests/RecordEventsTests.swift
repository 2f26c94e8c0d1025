import AggCore
import AggStore
import AggTestKit
import Foundation
import Synchronization
import Testing

@testable import AggCLI
@testable import AggOptions
@testable import AggServices

/// `agg record --events`: each source on its own schedule, a failing source costing only
/// itself (one line an outage), every change stored once across a restart and with two
/// recorders on one file. The sources are scripted by the minute of the recorder's fake clock.
@Suite("agg record --events")
struct RecordEventsTests {
    static let start = Timestamp(secondsSince1970: 1_800_000_000)

    static let btc = EventFact(condition: .listed, symbol: "BTC", detail: "비트코인 / Bitcoin")
    static let xrp = EventFact(condition: .listed, symbol: "XRP", detail: "리플 / XRP")
    static let ada = EventFact(condition: .listed, symbol: "ADA", detail: "에이다 / Cardano")
    static let caution = EventFact(condition: .caution, symbol: "XRP", subject: "PRICE_FLUCTUATIONS")
    static let first = EventFact(condition: .notice, symbol: nil, subject: "101", detail: "첫 공지")
    static let second = EventFact(condition: .notice, symbol: nil, subject: "102", detail: "두번째 공지")

    /// The sources as they stand at each minute after `start`: upbit lists ADA and delists XRP
    /// at minute 3, cautions XRP at minutes 3 and 4, and its warnings fail at minutes 1 and 2;
    /// bithumb posts a notice at minutes 1 and 2.
    final class ScriptedSources: EventObserving {
        let clock: FakeClock
        let calls = Mutex<[String: Int]>([:])

        init(clock: FakeClock) {
            self.clock = clock
        }

        var schedules: [EventSourceSchedule] {
            [
                EventSourceSchedule(venue: "upbit", source: "markets", interval: .seconds(300)),
                EventSourceSchedule(venue: "upbit", source: "warnings", interval: .seconds(60)),
                EventSourceSchedule(venue: "bithumb", source: "notices", interval: .seconds(60)),
            ]
        }

        func observe(venue: String, source: String) async throws(AggError) -> EventObservation {
            let now = clock.now
            let minute = (now.millisecondsSince1970 - RecordEventsTests.start.millisecondsSince1970) / 60_000
            calls.withLock { $0["\(venue) \(source)", default: 0] += 1 }
            let facts: [EventFact]
            switch (venue, source) {
            case ("upbit", "markets"):
                facts = minute < 3 ? [btc, xrp] : [btc, ada]
            case ("upbit", "warnings"):
                if minute == 1 || minute == 2 {
                    throw .http(venue: "upbit", status: 503, url: "http://127.0.0.1/upbit/warnings")
                }
                facts = (3...4).contains(minute) ? [caution] : []
            default:
                facts = minute == 0 ? [] : minute == 1 ? [first] : minute == 2 ? [first, second] : [second]
            }
            return EventObservation(venue: venue, source: source, observedAt: now, facts: facts)
        }

        func count(_ name: String) -> Int { calls.withLock { $0[name] ?? 0 } }
    }

    /// A recorder of upbit's prices (a loopback fixture) and the scripted events.
    static func service(_ harness: RecordServiceTests.Harness, clock: FakeClock, store: Store, holder: String)
        throws -> (RecordService, ScriptedSources)
    {
        let sources = ScriptedSources(clock: clock)
        let options = try NetworkOptions(
            try ArgumentParser.parse([], spec: RecordCommand.spec), context: harness.context)
        let service = RecordService(
            factory: AdapterFactory(context: harness.context, options: options, clock: clock.recorder.retry),
            store: store, clock: clock.recorder, holder: holder,
            settings: RecordService.Settings(interval: 60, venueDeadline: 5, retainSeconds: nil),
            events: EventRecording(observer: sources, store: store))
        return (service, sources)
    }

    static func summary(_ events: [MarketEvent]) -> [String] {
        events.map {
            "\($0.firstObserved.millisecondsSince1970 / 1000 - 1_800_000_000) \($0.venue) \($0.kind.rawValue) \($0.symbol ?? $0.subject)"
        }
    }

    /// Every change of the script, once, at the first tick that saw it.
    static let expected = [
        "60 bithumb notice 101", "120 bithumb notice 102", "180 upbit caution_on XRP",
        "300 upbit listed ADA", "300 upbit delisted XRP", "300 upbit caution_off XRP",
    ]

    @Test("six ticks a minute apart: each source on its schedule, each change once, an outage said once")
    func schedule() async throws {
        let harness = try RecordServiceTests.Harness(venues: ["upbit"])
        defer { harness.cleanUp() }
        let clock = FakeClock(start: Self.start)
        let store = try harness.store()
        let (service, sources) = try Self.service(harness, clock: clock, store: store, holder: "test:1")
        let reports = RecordServiceTests.Reports()
        let totals = await service.run(try harness.plan(), count: 6, interrupts: AsyncStream { _ in }) { report, _ in
            reports.append(report)
        }
        #expect(totals.events == 6)
        #expect(sources.count("upbit markets") == 2)
        #expect(sources.count("upbit warnings") == 6)
        #expect(sources.count("bithumb notices") == 6)
        let outcomes = reports.list.compactMap(\.events)
        #expect(outcomes.map(\.events.count) == [0, 1, 1, 1, 0, 3])
        #expect(outcomes.map(\.asked) == [3, 2, 2, 2, 2, 3])
        #expect(
            outcomes.map { $0.outages.map { "\($0.source): \($0.error.description)" } } == [
                [],
                [
                    "upbit warnings: \(AggError.http(venue: "upbit", status: 503, url: "http://127.0.0.1/upbit/warnings").description)"
                ],
                [], [], [], [],
            ])
        #expect(outcomes.map(\.recovered) == [[], [], [], ["upbit warnings"], [], []])
        // The prices were recorded as ever, next to the events.
        #expect(reports.list.allSatisfy { $0.prices > 0 })
        #expect(Self.summary(try await store.events(EventQuery(since: Self.start))) == Self.expected)
        let line = RecordProgress.line(reports.list[5])
        #expect(line.hasSuffix(", 3 events"))
    }

    @Test("a restarted recorder continues from the stored state: no baseline again, nothing twice")
    func restart() async throws {
        let harness = try RecordServiceTests.Harness(venues: ["upbit"])
        defer { harness.cleanUp() }
        let clock = FakeClock(start: Self.start)
        do {
            let (service, _) = try Self.service(harness, clock: clock, store: try harness.store(), holder: "test:1")
            _ = await service.run(try harness.plan(), count: 3, interrupts: AsyncStream { _ in }) { _, _ in }
        }
        // Started again at minute 3 with a new store object on the same file.
        let store = try harness.store()
        let (service, _) = try Self.service(harness, clock: clock, store: store, holder: "test:1")
        clock.advance(60)
        let totals = await service.run(try harness.plan(), count: 3, interrupts: AsyncStream { _ in }) { _, _ in }
        #expect(totals.events == 4)
        // Markets are asked at the restart (minute 3), where the schedule found them changed.
        #expect(
            Self.summary(try await store.events(EventQuery(since: Self.start))) == [
                "60 bithumb notice 101", "120 bithumb notice 102", "180 upbit listed ADA", "180 upbit delisted XRP",
                "180 upbit caution_on XRP", "300 upbit caution_off XRP",
            ])
    }

    /// One tick of `service` from `state`, and the state after it.
    struct Stepped: Sendable {
        var report: RecordService.TickReport
        var state: RecordService.State
    }

    static func step(_ service: RecordService, _ plan: RecordService.Plan, _ state: RecordService.State, _ number: Int)
        async -> Stepped
    {
        var state = state
        let report = await service.tick(plan, number: number, state: &state)
        return Stepped(report: report, state: state)
    }

    @Test("two recorders on one file ticking together, each observing every change, store each change once")
    func twoRecorders() async throws {
        let harness = try RecordServiceTests.Harness(venues: ["upbit"])
        defer { harness.cleanUp() }
        // One clock: both recorders see the world at the same instants, as two hosts would.
        let clock = FakeClock(start: Self.start)
        let (one, _) = try Self.service(harness, clock: clock, store: try harness.store(), holder: "test:1")
        let (two, _) = try Self.service(harness, clock: clock, store: try harness.store(), holder: "test:2")
        let plan = try harness.plan()
        var states = (RecordService.State(), RecordService.State())
        var recorded = (0, 0)
        for number in 1...6 {
            let (before0, before1) = states
            async let first = Self.step(one, plan, before0, number)
            async let second = Self.step(two, plan, before1, number)
            let (a, b) = await (first, second)
            states = (a.state, b.state)
            recorded.0 += a.report.events?.events.count ?? 0
            recorded.1 += b.report.events?.events.count ?? 0
            // Both asked the same sources at the same instant; one of them stored each change.
            #expect(a.report.events?.asked == b.report.events?.asked)
            clock.advance(60)
        }
        #expect(recorded.0 + recorded.1 == 6)
        #expect(Self.summary(try await harness.store().events(EventQuery(since: Self.start))) == Self.expected)
    }

    @Test("event rules deliver each matching event once: the stderr line, a webhook, Telegram and Discord")
    func alertsToWebhook() async throws {
        let hook = try LoopbackServer { _ in .status(204) }
        // Telegram's Bot API and a Discord webhook as they answer a message they accept.
        let telegram = try LoopbackServer { request in
            request.method == "POST" && request.path == "/bot123456:ABC-token/sendMessage"
                ? .json(#"{"ok":true,"result":{"message_id":7}}"#)
                : .json(#"{"ok":false,"error_code":404,"description":"Not Found"}"#, status: 404)
        }
        let discord = try LoopbackServer { request in
            let accepted = request.method == "POST" && request.path == "/api/webhooks/112233/discord-token_1"
            return accepted ? .status(204) : .status(404)
        }
        let harness = try RecordServiceTests.Harness(venues: ["upbit", "bithumb"])
        defer { harness.cleanUp() }
        let output = BufferSink()
        let error = BufferSink()
        var context = harness.context
        context.environment["AGG_TELEGRAM_TOKEN"] = "123456:ABC-token"
        context.environment["AGG_TELEGRAM_URL"] = telegram.baseURL
        context.environment["AGG_DISCORD_TOKEN"] = "discord-token_1"
        context.environment["AGG_DISCORD_URL"] = discord.baseURL
        context.console = Console(
            standardOutput: output, standardError: error, outputIsTerminal: false, errorIsTerminal: false, width: 100)
        let parsed = try ArgumentParser.parse(
            [
                "--exchange", "upbit", "--events", "--interval", "60", "--count", "6", "--alert", "upbit:* listed",
                "--alert", "XRP caution on", "--alert", "bithumb:* notice", "--notify", hook.baseURL + "/hook",
                "--notify", "telegram://5",
                "--notify", "discord://112233",
            ], spec: RecordCommand.spec)
        let sources = ScriptedSources(clock: harness.clock)
        let status = try await RecordCommand.run(
            parsed, context: context, clock: harness.clock.recorder, observer: { _, _, _ in sources })
        #expect(status == .success)
        let lines = error.text.split(separator: "\n").map(String.init)
        #expect(
            lines.filter { $0.hasPrefix("agg: alert") } == [
                "agg: alert: bithumb notice: 첫 공지 (rule bithumb:* notice)",
                "agg: alert: bithumb notice: 두번째 공지 (rule bithumb:* notice)",
                "agg: alert: upbit XRP caution on (rule XRP caution on)",
                "agg: alert: upbit ADA listed: 에이다 / Cardano (rule upbit:* listed)",
            ])
        let outage = AggError.http(venue: "upbit", status: 503, url: "http://127.0.0.1/upbit/warnings")
        #expect(
            lines.filter { $0.hasPrefix("agg: record: events") } == [
                "agg: record: events: upbit warnings: \(outage.description)",
                "agg: record: events: upbit warnings answers again",
            ])
        #expect(lines.last?.hasSuffix(", 0 pruned, 6 events") == true)
        #expect(
            output.text.split(separator: "\n").map { $0.split(separator: ", ").last.map(String.init) ?? "" } == [
                "0 events", "1 event", "1 event", "1 event", "0 events", "3 events",
            ])
        let bodies = hook.requests.map { String(decoding: $0.body, as: UTF8.self) }
        #expect(bodies.count == 4)
        #expect(
            bodies.last
                == #"{"time":"2027-01-15T08:05:00.000Z","rule":"upbit:* listed","exchange":"upbit","symbol":"ADA","field":"listed","value":"listed","threshold":null,"network":null,"detail":"에이다 / Cardano","firstObserved":"2027-01-15T08:05:00.000Z","text":"agg alert: upbit ADA listed: 에이다 / Cardano (rule upbit:* listed)"}"#
        )
        let texts = telegram.requests.map { String(decoding: $0.body, as: UTF8.self) }
        #expect(
            texts == [
                #"{"chat_id":"5","text":"agg alert: bithumb notice: 첫 공지 (rule bithumb:* notice)"}"#,
                #"{"chat_id":"5","text":"agg alert: bithumb notice: 두번째 공지 (rule bithumb:* notice)"}"#,
                #"{"chat_id":"5","text":"agg alert: upbit XRP caution on (rule XRP caution on)"}"#,
                #"{"chat_id":"5","text":"agg alert: upbit ADA listed: 에이다 / Cardano (rule upbit:* listed)"}"#,
            ])
        let embeds = discord.requests.map { String(decoding: $0.body, as: UTF8.self) }
        #expect(embeds.count == 4)
        #expect(
            embeds.last
                == #"{"content":"agg alert: upbit ADA listed: 에이다 / Cardano (rule upbit:\\* listed)","embeds":[{"title":"upbit ADA: upbit:\\* listed","timestamp":"2027-01-15T08:05:00.000Z","fields":[{"name":"exchange","value":"upbit","inline":true},{"name":"symbol","value":"ADA","inline":true},{"name":"listed","value":"에이다 / Cardano","inline":true}]}],"allowed_mentions":{"parse":[]}}"#
        )
    }

    @Test("an event rule where no events are recorded is a usage error (exit 64)")
    func eventRuleNeedsEvents() async throws {
        let harness = try RecordServiceTests.Harness(venues: ["upbit"])
        defer { harness.cleanUp() }
        await #expect(
            throws: AggError.usage(
                "--alert 'upbit:* listed': agg record does not record market events "
                    + "(event alerts need agg record --events)")
        ) {
            _ = try await RecordServiceTests().command(
                ["--exchange", "upbit", "--count", "1", "--alert", "upbit:* listed"], harness: harness)
        }
        let watch = await runCLI(["watch", "BTC", "-e", "upbit", "--alert", "XRP caution on"])
        #expect(watch.status == 64)
        #expect(
            watch.errorLines == [
                "agg: --alert 'XRP caution on': agg watch does not record market events "
                    + "(event alerts need agg record --events)"
            ])
    }
}
