import AggCore
import Testing

@Suite("Market events: the changes between two observations of one source")
struct EventDiffTests {
    private func at(_ seconds: Int64) -> Timestamp { Timestamp(secondsSince1970: seconds) }

    private func observation(_ seconds: Int64, _ facts: [EventFact], source: String = "markets") -> EventObservation {
        EventObservation(venue: "upbit", source: source, observedAt: at(seconds), facts: facts)
    }

    private let btc = EventFact(condition: .listed, symbol: "BTC", detail: "비트코인 / Bitcoin")
    private let xrp = EventFact(condition: .listed, symbol: "XRP", detail: "리플 / XRP")
    private let xrpCaution = EventFact(condition: .caution, symbol: "XRP", subject: "PRICE_FLUCTUATIONS")

    @Test("the first observation is the baseline: no event, its facts become the state, sorted")
    func baseline() {
        let transition = EventDiff.transition(from: nil, to: observation(100, [xrp, btc, xrpCaution]))
        #expect(transition.events == [])
        #expect(transition.state == [xrpCaution, btc, xrp])
    }

    @Test("a fact that appears raises its kind, one that goes raises the opposite, once each")
    func appearAndGo() {
        let ada = EventFact(condition: .listed, symbol: "ADA", detail: "에이다 / Cardano")
        let transition = EventDiff.transition(from: [btc, xrp, xrpCaution], to: observation(200, [btc, ada]))
        #expect(
            transition.events == [
                MarketEvent(
                    venue: "upbit", kind: .cautionOff, symbol: "XRP", subject: "PRICE_FLUCTUATIONS",
                    firstObserved: at(200)),
                MarketEvent(
                    venue: "upbit", kind: .listed, symbol: "ADA", detail: "에이다 / Cardano", firstObserved: at(200)),
                MarketEvent(venue: "upbit", kind: .delisted, symbol: "XRP", detail: "리플 / XRP", firstObserved: at(200)),
            ])
        #expect(transition.state == [ada, btc])
        #expect(EventDiff.transition(from: transition.state, to: observation(300, [btc, ada])).events == [])
    }

    @Test("a renamed coin (same identity, new detail) is no event; the state takes the new words")
    func renamed() {
        let renamed = EventFact(condition: .listed, symbol: "XRP", detail: "엑스알피 / XRP")
        let transition = EventDiff.transition(from: [xrp], to: observation(200, [renamed]))
        #expect(transition.events == [])
        #expect(transition.state == [renamed])
    }

    @Test("a notice that drops off the list raises nothing and is remembered, so its return is no second notice")
    func notices() {
        let old = EventFact(condition: .notice, symbol: nil, subject: "101", detail: "점검", venueTime: at(50))
        let new = EventFact(condition: .notice, symbol: nil, subject: "102", detail: "상장", venueTime: at(150))
        let first = EventDiff.transition(from: [old], to: observation(200, [new], source: "notices"))
        #expect(
            first.events == [
                MarketEvent(
                    venue: "upbit", kind: .notice, symbol: nil, subject: "102", detail: "상장", firstObserved: at(200),
                    venueTime: at(150))
            ])
        #expect(first.state == [old, new])
        #expect(
            EventDiff.transition(from: first.state, to: observation(300, [old, new], source: "notices")).events == [])
    }

    @Test("remembered notices are capped at EventDiff.rememberedNotices, the oldest going first")
    func noticeCap() {
        let cap = EventDiff.rememberedNotices
        let previous = (0..<cap).map {
            EventFact(condition: .notice, symbol: nil, subject: "n\($0)", venueTime: at(Int64($0)))
        }
        let fresh = EventFact(condition: .notice, symbol: nil, subject: "fresh", venueTime: at(Int64(cap)))
        let transition = EventDiff.transition(from: previous, to: observation(9_999, [fresh], source: "notices"))
        #expect(transition.state.count == cap)
        #expect(!transition.state.contains(previous[0]))
        #expect(transition.state.contains(previous[1]))
        #expect(transition.state.contains(fresh))
    }

    @Test("a repeated identity within one observation counts once")
    func repeated() {
        let twice = EventFact(condition: .caution, symbol: "XRP", subject: "PRICE_FLUCTUATIONS", detail: "second")
        let transition = EventDiff.transition(from: [], to: observation(200, [xrpCaution, twice]))
        #expect(transition.events.map(\.kind) == [.cautionOn])
        #expect(transition.state == [xrpCaution])
    }

    @Test("an empty stored state is not a first observation: everything in the new one appears")
    func emptyState() {
        #expect(EventDiff.transition(from: [], to: observation(200, [btc])).events.map(\.kind) == [.listed])
    }

    @Test("an unread coin's missing facts have not gone: no event, they stay; its new facts still appear")
    func unread() {
        let xrpWarning = EventFact(condition: .warning, symbol: "XRP")
        var next = observation(200, [btc, xrpWarning])
        next.unread = ["XRP"]
        let transition = EventDiff.transition(from: [btc, xrp, xrpCaution], to: next)
        #expect(
            transition.events == [MarketEvent(venue: "upbit", kind: .warningOn, symbol: "XRP", firstObserved: at(200))])
        #expect(transition.state == [xrpCaution, btc, xrp, xrpWarning])
        // Read again without them, they go.
        #expect(
            EventDiff.transition(from: transition.state, to: observation(300, [btc])).events.map(\.kind) == [
                .cautionOff, .delisted, .warningOff,
            ])
    }
}
