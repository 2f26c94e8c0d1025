import AggCore
import FoundationEssentials
import Testing

/// Event rules in the `--alert` grammar: `[VENUE:]SYMBOL|* EVENT`, what they match, and the
/// alert they make (its line, its JSON). Malformed event rules are rows of
/// `AlertRuleTests.invalid`, the one table of every malformed rule.
@Suite("alert rules on market events")
struct AlertEventRuleTests {
    @Test(
        "valid event rules and their normal text",
        arguments: [
            ("upbit:* listed", "upbit:* listed"),
            ("XRP caution on", "XRP caution on"),
            ("bithumb:* notice", "bithumb:* notice"),
            ("  Upbit:xrp  CAUTION   Off ", "upbit:XRP caution off"),
            ("* warning_on", "* warning on"),
            ("BTC warning off", "BTC warning off"),
            ("binance:ADA delisted", "binance:ADA delisted"),
        ])
    func valid(text: String, normal: String) throws {
        let rule = try AlertRule.parse(text, venues: alertVenues)
        #expect(rule.text == normal)
        #expect(rule.thresholdText == nil)
        #expect(try AlertRule.parse(rule.text, venues: alertVenues) == rule)
    }

    @Test("the parts of event rules")
    func parts() throws {
        #expect(
            try AlertRule.parse("upbit:* listed", venues: alertVenues)
                == AlertRule(venue: "upbit", symbol: "*", condition: .event(.listed)))
        #expect(
            try AlertRule.parse("XRP caution on", venues: alertVenues)
                == AlertRule(venue: nil, symbol: "XRP", condition: .event(.cautionOn)))
        let notice = try AlertRule.parse("bithumb:* notice", venues: alertVenues)
        #expect(notice == AlertRule(venue: "bithumb", symbol: "*", condition: .event(.notice)))
        #expect(notice.fieldName == "notice")
        #expect(try AlertRule.parse("xrp CAUTION off", venues: alertVenues).fieldName == "caution_off")
    }

    static let listed = MarketEvent(
        venue: "upbit", kind: .listed, symbol: "ADA", detail: "에이다 / Cardano",
        firstObserved: Timestamp(millisecondsSince1970: 1_800_000_060_000))
    static let notice = MarketEvent(
        venue: "bithumb", kind: .notice, symbol: nil, subject: "4521", detail: "점검 \"안내\"",
        firstObserved: Timestamp(millisecondsSince1970: 1_800_000_120_000),
        venueTime: Timestamp(millisecondsSince1970: 1_800_000_090_500))

    @Test("a rule matches its kind, its venue (any without one) and its coin (any, and none, with *)")
    func matching() throws {
        func rule(_ text: String) throws -> AlertRule { try AlertRule.parse(text, venues: alertVenues) }
        #expect(try rule("upbit:* listed").matches(Self.listed))
        #expect(try rule("ADA listed").matches(Self.listed))
        #expect(try !rule("bithumb:* listed").matches(Self.listed))
        #expect(try !rule("XRP listed").matches(Self.listed))
        #expect(try !rule("upbit:* delisted").matches(Self.listed))
        #expect(try rule("bithumb:* notice").matches(Self.notice))
        #expect(try !rule("BTC notice").matches(Self.notice))
        #expect(try !rule("upbit:ADA last > 1").matches(Self.listed))
    }

    @Test("an event's alert: its line on stderr and its JSON, the event's own coin and words")
    func alert() throws {
        let listed = Alert(
            time: Self.listed.firstObserved, rule: try AlertRule.parse("upbit:* listed", venues: alertVenues),
            exchange: "upbit", reading: .event(Self.listed))
        #expect(listed.summary == "upbit ADA listed: 에이다 / Cardano (rule upbit:* listed)")
        #expect(
            listed.json
                == #"{"time":"2027-01-15T08:01:00.000Z","rule":"upbit:* listed","exchange":"upbit","symbol":"ADA","field":"listed","value":"listed","threshold":null,"network":null,"detail":"에이다 / Cardano","firstObserved":"2027-01-15T08:01:00.000Z"}"#
        )
        let notice = Alert(
            time: Self.notice.firstObserved, rule: try AlertRule.parse("bithumb:* notice", venues: alertVenues),
            exchange: "bithumb", reading: .event(Self.notice))
        #expect(notice.summary == "bithumb notice: 점검 \"안내\" (rule bithumb:* notice)")
        #expect(
            notice.json
                == #"{"time":"2027-01-15T08:02:00.000Z","rule":"bithumb:* notice","exchange":"bithumb","symbol":null,"field":"notice","value":"notice","threshold":null,"network":null,"detail":"점검 \"안내\"","firstObserved":"2027-01-15T08:02:00.000Z","venueTime":"2027-01-15T08:01:30.500Z"}"#
        )
    }
}
