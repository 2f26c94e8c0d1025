import AggCore
import AggJSON
import AggStore
import Foundation
import Testing

@testable import AggCLI

/// `agg events` on events written through the store's `observe`: the exact rows in every
/// format, the filters, venue text escaped everywhere, and bad input.
@Suite("agg events")
struct EventsCommandTests {
    static let start = Timestamp(secondsSince1970: 1_800_000_000)
    static let now = Timestamp(secondsSince1970: 1_800_000_600)

    static func time(_ seconds: Int64) -> Timestamp {
        Timestamp(millisecondsSince1970: start.millisecondsSince1970 + seconds * 1000)
    }

    /// A notice title with a line feed, a quote, a comma and a terminal escape.
    static let hostileTitle = "점검\n\"긴급\", \u{1B}]0;pwned\u{07}"

    /// Baselines at 08:00; at 08:01 upbit lists ADA, delists XRP and cautions XRP; at 08:02
    /// bithumb posts a notice (published 08:01:30).
    static func fill(_ home: String) async throws {
        let store = try Store.open(path: home + "/agg.sqlite")
        func observe(_ venue: String, _ source: String, _ seconds: Int64, _ facts: [EventFact]) async throws {
            _ = try await store.observe(
                EventObservation(venue: venue, source: source, observedAt: time(seconds), facts: facts))
        }
        let btc = EventFact(condition: .listed, symbol: "BTC", detail: "비트코인 / Bitcoin")
        try await observe(
            "upbit", "markets", 0, [btc, EventFact(condition: .listed, symbol: "XRP", detail: "리플 / XRP")])
        try await observe("upbit", "warnings", 0, [])
        try await observe("bithumb", "notices", 0, [])
        try await observe(
            "upbit", "markets", 60, [btc, EventFact(condition: .listed, symbol: "ADA", detail: "에이다 / Cardano")])
        try await observe(
            "upbit", "warnings", 60,
            [EventFact(condition: .caution, symbol: "XRP", subject: "PRICE_FLUCTUATIONS", detail: "가격 급등락")])
        try await observe(
            "bithumb", "notices", 120,
            [EventFact(condition: .notice, symbol: nil, subject: "4521", detail: hostileTitle, venueTime: time(90))])
    }

    func events(_ arguments: [String]) async throws -> CLIRun {
        try await withTemporaryHome { home in
            try await Self.fill(home)
            return await runCLI(["events"] + arguments, environment: ["AGG_HOME": home], now: Self.now)
        }
    }

    @Test("JSON: one object a row, oldest first then by venue and kind, venue text escaped as JSON")
    func json() async throws {
        let run = try await events(["--format", "json"])
        #expect(run.status == 0)
        #expect(run.error == "")
        #expect(
            run.output == """
                [{"venue":"upbit","kind":"listed","symbol":"ADA","network":null,"detail":"에이다 / Cardano",\
                "firstObserved":"2027-01-15T08:01:00.000Z","venueTime":null},\
                {"venue":"upbit","kind":"delisted","symbol":"XRP","network":null,"detail":"리플 / XRP",\
                "firstObserved":"2027-01-15T08:01:00.000Z","venueTime":null},\
                {"venue":"upbit","kind":"caution_on","symbol":"XRP","network":null,"detail":"가격 급등락",\
                "firstObserved":"2027-01-15T08:01:00.000Z","venueTime":null},\
                {"venue":"bithumb","kind":"notice","symbol":null,"network":null,\
                "detail":"점검\\n\\"긴급\\", \\u001b]0;pwned\\u0007",\
                "firstObserved":"2027-01-15T08:02:00.000Z","venueTime":"2027-01-15T08:01:30.000Z"}]

                """)
        let parsed = try run.json()
        #expect(try parsed[3]["detail"].string() == Self.hostileTitle)
    }

    @Test("CSV: the same rows; venue text quoted with its controls escaped")
    func csv() async throws {
        let run = try await events(["--format", "csv"])
        #expect(run.status == 0)
        #expect(
            run.output == """
                first_observed,venue,kind,symbol,network,detail,venue_time
                2027-01-15T08:01:00.000Z,upbit,listed,ADA,,에이다 / Cardano,
                2027-01-15T08:01:00.000Z,upbit,delisted,XRP,,리플 / XRP,
                2027-01-15T08:01:00.000Z,upbit,caution_on,XRP,,가격 급등락,
                2027-01-15T08:02:00.000Z,bithumb,notice,,,"점검\\x0A""긴급"", \\x1B]0;pwned\\x07",2027-01-15T08:01:30.000Z

                """)
    }

    @Test("table: one line an event, the detail's controls escaped; nothing in the window is said on stderr")
    func table() async throws {
        let run = try await events(["--format", "table", "--kind", "notice"])
        #expect(run.status == 0)
        let lines = run.output.split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        #expect(
            lines.last?.split(separator: " ") == [
                "2027-01-15", "08:02:00", "bithumb", "notice", "-", "-", "점검\\x0A\"긴급\",", "\\x1B]0;pwned\\x07",
            ])
        #expect(!run.output.contains("\u{1B}"))
        let empty = try await events(["--format", "table", "--since", "1m"])
        #expect(empty.status == 0)
        #expect(empty.output == "")
        #expect(
            empty.error == "agg: no market events since 2027-01-15 08:09:00 UTC (agg record --events stores them)\n")
        let none = try await events(["--format", "json", "--since", "1m"])
        #expect(none.output == "[]\n")
    }

    @Test("filters: kinds (repeatable, comma lists, any case), venues, coins (which leave out notices), since")
    func filters() async throws {
        func rows(_ arguments: [String]) async throws -> [String] {
            let run = try await events(arguments + ["--format", "csv"])
            #expect(run.status == 0, "\(run.error)")
            return run.output.split(separator: "\n").dropFirst().map {
                $0.split(separator: ",", omittingEmptySubsequences: false)[1...3].joined(separator: " ")
            }
        }
        #expect(
            try await rows(["--kind", "LISTED,delisted", "--kind", "notice"]) == [
                "upbit listed ADA", "upbit delisted XRP", "bithumb notice ",
            ])
        #expect(try await rows(["-e", "bithumb"]) == ["bithumb notice "])
        #expect(try await rows(["xrp"]) == ["upbit delisted XRP", "upbit caution_on XRP"])
        #expect(try await rows(["--since", "2027-01-15T08:02Z"]) == ["bithumb notice "])
        #expect(try await rows(["--since", "30d", "XRP", "--kind", "caution_on"]) == ["upbit caution_on XRP"])
    }

    @Test(
        "bad input is one usage line (exit 64); an unknown kind lists the kinds",
        arguments: [
            (
                ["--kind", "listing"],
                "agg: invalid --kind 'listing': expected one or more of: listed, delisted, caution_on, caution_off, "
                    + "warning_on, warning_off, notice, deposit_closed, deposit_open, withdraw_closed, withdraw_open"
            ),
            (
                ["--kind", "listed,"],
                "agg: invalid --kind 'listed,': expected one or more of: listed, delisted, caution_on, caution_off, "
                    + "warning_on, warning_off, notice, deposit_closed, deposit_open, withdraw_closed, withdraw_open"
            ),
            (["--since", "yesterday"], nil),
            (["--exchange", "nope"], nil),
            (["BTC/KRW!"], nil),
        ])
    func badInput(arguments: [String], line: String?) async throws {
        let run = try await events(arguments)
        #expect(run.status == 64)
        #expect(run.errorLines.count == 1)
        if let line { #expect(run.errorLines == [line]) }
        #expect(run.output == "")
    }
}
