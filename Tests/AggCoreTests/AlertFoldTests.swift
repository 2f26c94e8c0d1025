import AggCore
import AggTestKit
import FoundationEssentials
import Testing

/// 2024-08-08T08:12:15Z plus `seconds`.
private func at(_ seconds: Int64) -> Timestamp {
    Timestamp(millisecondsSince1970: 1_723_104_735_000 + seconds * 1000)
}

private func premium(_ value: String) -> AlertObservations {
    var observations = AlertObservations()
    observations.record(decimal(value), field: .premium, exchange: "upbit", symbol: "BTC")
    return observations
}

@Suite("alert engine: crossings inside the cooldown are folded into the next alert, not lost")
struct AlertFoldTests {
    @Test("each crossing held back is answered and counted; the next alert says how many and since when")
    func foldsIntoTheNextAlert() throws {
        let rule = try AlertRule.parse("upbit:BTC premium > 3%", venues: alertVenues)
        var engine = AlertEngine(rules: [rule])  // cooldown 300 s
        // Fires at 0; crosses again at 20, 40 and 60 (each re-armed at 2%): held back, counted.
        let values: [(Int64, String)] = [
            (0, "3.5"), (10, "2"), (20, "3.6"), (30, "2"), (40, "3.7"), (50, "2"), (60, "3.8"), (70, "2"),
        ]
        var held: [Alert] = []
        for (seconds, value) in values {
            let evaluation = engine.evaluate(premium(value), at: at(seconds))
            if seconds == 0 { #expect(evaluation.alerts.count == 1) } else { #expect(evaluation.alerts.isEmpty) }
            held += evaluation.held
        }
        #expect(held.map(\.time) == [at(20), at(40), at(60)])
        #expect(held.map(\.reading) == [.number(decimal("3.6")), .number(decimal("3.7")), .number(decimal("3.8"))])
        #expect(held.allSatisfy { $0.folded == 0 })

        let next = engine.evaluate(premium("3.9"), at: at(300))
        let alert = try #require(next.alerts.first)
        #expect(alert.folded == 3)
        #expect(alert.foldedSince == at(20))
        #expect(alert.summary == "upbit BTC premium 3.9% (rule upbit:BTC premium > 3%) (+3 more since 08:12:35 UTC)")
        #expect(
            alert.json
                == #"{"time":"2024-08-08T08:17:15.000Z","rule":"upbit:BTC premium > 3%","exchange":"upbit","symbol":"BTC","field":"premium","value":"3.9","threshold":"3","folded":3,"foldedSince":"2024-08-08T08:12:35.000Z"}"#
        )

        // The count starts again after the alert that carried it.
        _ = engine.evaluate(premium("2"), at: at(310))
        let after = engine.evaluate(premium("3.5"), at: at(700))
        #expect(after.alerts.map(\.folded) == [0])
        #expect(after.alerts.first?.json.contains("folded") == false)
    }
}
