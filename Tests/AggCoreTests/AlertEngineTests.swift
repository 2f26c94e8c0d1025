import AggCore
import AggTestKit
import FoundationEssentials
import Synchronization
import Testing

/// 2024-08-08T08:12:15Z.
private let start = Timestamp(millisecondsSince1970: 1_723_104_735_000)

/// `start` plus `seconds`.
private func at(_ seconds: Int64) -> Timestamp {
    Timestamp(millisecondsSince1970: start.millisecondsSince1970 + seconds * 1000)
}

private func rule(_ text: String) -> AlertRule {
    (try? AlertRule.parse(text, venues: alertVenues)) ?? AlertRule(venue: nil, symbol: "", condition: .closed(.deposit))
}

/// One tick's readings: `values` by venue, for `field` of BTC.
private func readings(_ values: [String: String], field: AlertRule.Field = .premium) -> AlertObservations {
    var observations = AlertObservations()
    for (venue, value) in values { observations.record(decimal(value), field: field, exchange: venue, symbol: "BTC") }
    return observations
}

/// Feeds `values` (one a tick, 10 s apart unless `times` says otherwise) to `engine` on `venue`
/// and answers the ticks that fired, by index.
private func fired(
    _ engine: inout AlertEngine, _ values: [String], field: AlertRule.Field = .premium, venue: String = "upbit",
    times: [Int64]? = nil
) -> [Int] {
    var indices: [Int] = []
    for (index, value) in values.enumerated() {
        let time = at(times?[index] ?? Int64(index) * 10)
        if !engine.evaluate(readings([venue: value], field: field), at: time).alerts.isEmpty { indices.append(index) }
    }
    return indices
}

/// A history store holding alert states only, in memory; `failSaves` makes saving fail.
final class AlertStateStore: HistoryStoreStub {
    let saved = Mutex<[String: AlertState]>([:])
    let failSaves = Mutex(false)

    func alertStates() async throws(AggError) -> [AlertState] {
        saved.withLock { $0.values.sorted { $0.rule < $1.rule } }
    }

    func saveAlertStates(_ states: [AlertState]) async throws(AggError) {
        if failSaves.withLock({ $0 }) { throw .store("disk I/O error") }
        saved.withLock { saved in for state in states { saved[state.rule] = state } }
    }
}

@Suite("alert engine: edges, hysteresis, cooldown, per-venue state")
struct AlertEngineTests {
    @Test("fires on the crossing, not while it holds; re-arms at or below 2.7% for > 3% (10% band)")
    func edgeAndHysteresis() {
        var engine = AlertEngine(rules: [rule("upbit:BTC premium > 3%")], settings: AlertSettings(cooldownSeconds: 0))
        // 2.9 no, 3.1 fires, 3.5 holds, 2.8 in the band, 3.2 still fired, 2.7 re-arms, 3.01 fires.
        #expect(fired(&engine, ["2.9", "3.1", "3.5", "2.8", "3.2", "2.7", "3.01"]) == [1, 6])
        #expect(
            engine.states == [
                "upbit:BTC premium > 3%": AlertState(rule: "upbit:BTC premium > 3%", active: true, lastFired: at(60))
            ])
    }

    @Test("3% exactly is not above 3%; >= fires on it and re-arms only below 2.7%")
    func boundaries() {
        var above = AlertEngine(rules: [rule("upbit:BTC premium > 3%")], settings: AlertSettings(cooldownSeconds: 0))
        #expect(fired(&above, ["3", "3.00001"]) == [1])
        var atLeast = AlertEngine(rules: [rule("upbit:BTC premium >= 3%")], settings: AlertSettings(cooldownSeconds: 0))
        #expect(fired(&atLeast, ["3", "2.7", "3", "2.69", "3"]) == [0, 4])
    }

    @Test("a price below: < 3000000 re-arms at or above 3300000; the band is set by --alert-reset")
    func downward() {
        var engine = AlertEngine(rules: [rule("upbit:BTC last < 3000000")], settings: AlertSettings(cooldownSeconds: 0))
        #expect(fired(&engine, ["2999999", "3200000", "2900000", "3300000", "2999999"], field: .last) == [0, 4])
        var narrow = AlertEngine(
            rules: [rule("upbit:BTC last < 3000000")], settings: AlertSettings(resetPercent: 1, cooldownSeconds: 0))
        #expect(fired(&narrow, ["2999999", "3030000", "2999999"], field: .last) == [0, 2])
        var none = AlertEngine(
            rules: [rule("upbit:BTC last < 3000000")], settings: AlertSettings(resetPercent: 0, cooldownSeconds: 0))
        #expect(fired(&none, ["2999999", "3000000", "2999999"], field: .last) == [0, 2])
    }

    @Test("a negative threshold's band is 10% of its magnitude: < -1% re-arms at or above -0.9%")
    func negativeThreshold() {
        var engine = AlertEngine(rules: [rule("upbit:BTC premium < -1%")], settings: AlertSettings(cooldownSeconds: 0))
        #expect(fired(&engine, ["-1.5", "-0.91", "-2", "-0.9", "-1.01"]) == [0, 4])
    }

    @Test("a crossing within the cooldown is not delivered and must re-arm; after it, the next one is")
    func cooldown() {
        var engine = AlertEngine(rules: [rule("upbit:BTC premium > 3%")])
        let times: [Int64] = [0, 10, 60, 120, 290, 299, 300, 310, 320]
        // Fires at 0; re-arms at 10; crosses at 60 (cooling: kept fired, no alert); re-arms at
        // 120; crosses at 290 (still cooling); re-arms at 299; crosses at 300, 300 s after the
        // alert: fires.
        let values = ["3.5", "2", "3.5", "2", "3.5", "2", "3.5", "3.6", "2"]
        #expect(fired(&engine, values, times: times) == [0, 6])
        #expect(engine.states["upbit:BTC premium > 3%"]?.lastFired == at(300))
    }

    @Test("without a venue a rule has a state per venue; each venue fires on its own crossing")
    func perVenue() {
        var engine = AlertEngine(rules: [rule("BTC last > 100")], settings: AlertSettings(cooldownSeconds: 0))
        let first = engine.evaluate(readings(["upbit": "101", "bithumb": "99"], field: .last), at: at(0))
        #expect(first.alerts.map(\.exchange) == ["upbit"])
        let second = engine.evaluate(readings(["upbit": "102", "bithumb": "101"], field: .last), at: at(10))
        #expect(second.alerts.map(\.exchange) == ["bithumb"])
        #expect(
            second.changed == [AlertState(rule: "bithumb:BTC last > 100", active: true, lastFired: at(10))])
        #expect(engine.states.keys.sorted() == ["bithumb:BTC last > 100", "upbit:BTC last > 100"])
    }

    @Test("a venue missing from a tick keeps its state: no re-arm, no fire")
    func missingData() {
        var engine = AlertEngine(rules: [rule("BTC last > 100")], settings: AlertSettings(cooldownSeconds: 0))
        #expect(engine.evaluate(readings(["upbit": "101"], field: .last), at: at(0)).alerts.count == 1)
        let missing = engine.evaluate(readings(["bithumb": "50"], field: .last), at: at(10))
        #expect(missing.alerts.isEmpty)
        #expect(missing.changed == [])
        #expect(engine.states["upbit:BTC last > 100"]?.active == true)
        #expect(engine.evaluate(readings(["upbit": "101"], field: .last), at: at(20)).alerts.isEmpty)
        var named = AlertEngine(rules: [rule("upbit:BTC last > 100")])
        #expect(named.evaluate(AlertObservations(), at: at(0)) == AlertEvaluation(alerts: [], changed: []))
        #expect(named.states.isEmpty)
    }

    @Test("two rules naming one condition on one venue give one alert")
    func sameCondition() {
        var engine = AlertEngine(rules: [rule("BTC last > 100"), rule("upbit:BTC last > 100")])
        let tick = engine.evaluate(readings(["upbit": "101"], field: .last), at: at(0))
        #expect(tick.alerts.map(\.rule.text) == ["BTC last > 100"])
    }

    @Test("withdraw closed: fires when every network closes, re-arms when one opens, unknown changes nothing")
    func transfer() {
        var engine = AlertEngine(
            rules: [rule("bithumb:BTC withdraw closed")], settings: AlertSettings(cooldownSeconds: 0))
        func tick(_ withdraw: [TransferState], _ seconds: Int64) -> [Alert] {
            var observations = AlertObservations()
            observations.record(
                transfers: withdraw.enumerated().map { index, state in
                    TransferStatus(
                        exchange: "bithumb", coin: "BTC", network: "N\(index)", deposit: .open, withdraw: state)
                })
            return engine.evaluate(observations, at: at(seconds)).alerts
        }
        #expect(tick([.open, .closed], 0).isEmpty)
        let closed = tick([.closed, .closed], 10)
        #expect(closed.map(\.reading) == [.closed])
        #expect(tick([.unknown, .closed], 20).isEmpty)
        #expect(engine.states["bithumb:BTC withdraw closed"]?.active == true)
        #expect(tick([.closed, .closed], 30).isEmpty)
        #expect(tick([.closed, .open], 40).isEmpty)
        #expect(engine.states["bithumb:BTC withdraw closed"]?.active == false)
        #expect(tick([.closed], 50).count == 1)
    }

    @Test("restored state: a condition that already fired does not fire again")
    func restoredState() {
        var engine = AlertEngine(
            rules: [rule("upbit:BTC premium > 3%")],
            states: [AlertState(rule: "upbit:BTC premium > 3%", active: true, lastFired: at(-3600))])
        #expect(fired(&engine, ["3.5", "3.6"]) == [])
    }

    @Test("the JSON payload and the stderr words are exact")
    func payload() throws {
        let premium = Alert(
            time: start, rule: rule("BTC premium > 3%"), exchange: "upbit", reading: .number(decimal("3.12")))
        #expect(
            premium.json
                == #"{"time":"2024-08-08T08:12:15.000Z","rule":"BTC premium > 3%","exchange":"upbit","symbol":"BTC","field":"premium","value":"3.12","threshold":"3"}"#
        )
        #expect(premium.summary == "upbit BTC premium 3.12% (rule BTC premium > 3%)")
        let last = Alert(
            time: at(1), rule: rule("bithumb:ETH last <= 3000000.50"), exchange: "bithumb",
            reading: .number(decimal("2999999")))
        #expect(
            last.json
                == #"{"time":"2024-08-08T08:12:16.000Z","rule":"bithumb:ETH last <= 3000000.5","exchange":"bithumb","symbol":"ETH","field":"last","value":"2999999","threshold":"3000000.5"}"#
        )
        #expect(last.summary == "bithumb ETH last 2999999 (rule bithumb:ETH last <= 3000000.5)")
        let transfer = Alert(time: start, rule: rule("BTC withdraw closed"), exchange: "bithumb", reading: .closed)
        #expect(
            transfer.json
                == #"{"time":"2024-08-08T08:12:15.000Z","rule":"BTC withdraw closed","exchange":"bithumb","symbol":"BTC","field":"withdraw","value":"closed","threshold":null}"#
        )
        #expect(transfer.summary == "bithumb BTC withdraw closed (rule BTC withdraw closed)")
    }
}

@Suite("alert monitor: state kept in a history store")
struct AlertMonitorTests {
    @Test("a restart with the same store does not fire again; a re-arm is stored too")
    func restart() async throws {
        let store = AlertStateStore()
        let rules = [rule("BTC premium > 3%")]
        var first = AlertMonitor(rules: rules, store: store)
        #expect(try await first.tick(readings(["upbit": "3.5"]), at: at(0)).map(\.exchange) == ["upbit"])
        #expect(
            store.saved.withLock { $0 } == [
                "upbit:BTC premium > 3%": AlertState(rule: "upbit:BTC premium > 3%", active: true, lastFired: at(0))
            ])
        var second = AlertMonitor(rules: rules, store: store)
        #expect(try await second.tick(readings(["upbit": "3.6"]), at: at(400)).isEmpty)
        #expect(try await second.tick(readings(["upbit": "2"]), at: at(410)).isEmpty)
        #expect(store.saved.withLock { $0["upbit:BTC premium > 3%"]?.active } == false)
        var third = AlertMonitor(rules: rules, store: store)
        #expect(try await third.tick(readings(["upbit": "3.4"]), at: at(420)).count == 1)
    }

    @Test("a failed save undoes the tick: the error is thrown and the next tick fires")
    func failedSave() async throws {
        let store = AlertStateStore()
        var monitor = AlertMonitor(rules: [rule("BTC premium > 3%")], store: store)
        store.failSaves.withLock { $0 = true }
        await #expect(throws: AggError.store("disk I/O error")) {
            try await monitor.tick(readings(["upbit": "3.5"]), at: at(0))
        }
        store.failSaves.withLock { $0 = false }
        #expect(try await monitor.tick(readings(["upbit": "3.5"]), at: at(10)).count == 1)
    }

    @Test("without a store the state lives in memory")
    func memory() async throws {
        var monitor = AlertMonitor(rules: [rule("BTC premium > 3%")])
        #expect(try await monitor.tick(readings(["upbit": "3.5"]), at: at(0)).count == 1)
        #expect(try await monitor.tick(readings(["upbit": "3.5"]), at: at(10)).isEmpty)
        #expect(monitor.engine.states.count == 1)
    }
}
