import AggCore
import AggTestKit
import Foundation
import Testing

private func table(_ rates: [String: String], asOf seconds: Int64) -> RateTable {
    RateTable(
        source: "test", base: "USD", rates: rates.mapValues(decimal), asOf: Timestamp(secondsSince1970: seconds),
        nextUpdate: nil)
}

@Suite("RateComparison")
struct RateComparisonTests {
    @Test(
        "the trend against the default threshold of 0.01",
        arguments: [
            ("1350.003043", "1335.841127", RateTrend.down),
            ("89.378323", "91.454471", .up),
            ("0.907539", "0.901844", .flat),
            ("7.165629", "7.175629", .flat),  // exactly +0.01: the boundary is flat
            ("83.920127", "83.910127", .flat),  // exactly -0.01
            ("7.165629", "7.175630", .up),  // just past the boundary
            ("83.920127", "83.910126", .down),
            ("0.305712", "0.305712", .flat),
            ("944", "945.5", .up),
            ("1", "1", .flat),
        ])
    func defaultThreshold(previous: String, rate: String, trend: RateTrend) {
        let comparison = RateComparison()
        #expect(comparison.threshold.description == "0.01")
        #expect(comparison.trend(from: decimal(previous), to: decimal(rate)) == trend)
    }

    @Test(
        "other thresholds, boundaries included",
        arguments: [
            ("0", "1.5", "1.5000001", RateTrend.up),
            ("0", "1.5", "1.5", .flat),
            ("0", "1.5", "1.4999999", .down),
            ("0.5", "100", "100.5", .flat),
            ("0.5", "100", "100.51", .up),
            ("0.5", "100", "99.5", .flat),
            ("0.5", "100", "99.49", .down),
            ("20", "1350.003043", "1335.841127", .flat),
            ("0.000001", "0.000751016", "0.000751017", .flat),
            ("0.000001", "0.000751016", "0.000752017", .up),
        ])
    func thresholds(threshold: String, previous: String, rate: String, trend: RateTrend) {
        #expect(
            RateComparison(threshold: decimal(threshold)).trend(from: decimal(previous), to: decimal(rate)) == trend)
    }

    @Test("a negative threshold is taken as its magnitude")
    func negativeThreshold() {
        #expect(RateComparison(threshold: decimal("-0.5")).threshold == decimal("0.5"))
    }

    @Test("no previous rate: no trend at all (not flat), no previous value and no change")
    func noPrevious() {
        #expect(
            RateComparison().change(code: "KRW", rate: decimal("1350.003043"), previous: nil)
                == RateChange(code: "KRW", rate: decimal("1350.003043"), previous: nil, change: nil, trend: nil))
        #expect(RateComparison().trend(from: nil, to: decimal("1")) == nil)
    }

    @Test("changes are exact decimal differences")
    func exactChange() {
        let change = RateComparison().change(
            code: "KRW", rate: decimal("1335.841127"), previous: decimal("1350.003043"))
        #expect(change.change?.description == "-14.161916")
        #expect(change.trend == .down)
    }

    @Test("comparing tables: sorted by code, new currencies without a trend, dropped ones gone")
    func tables() {
        let previous = table(["KRW": "1350.003043", "EUR": "0.907539", "ZWL": "13.7902", "USD": "1"], asOf: 100)
        let current = table(["USD": "1", "KRW": "1335.841127", "EUR": "0.901844", "ZWG": "13.81"], asOf: 200)
        let changes = RateComparison().compare(current, with: previous)
        #expect(changes.map(\.code) == ["EUR", "KRW", "USD", "ZWG"])
        #expect(changes.map(\.trend) == [.flat, .down, .flat, nil])
        #expect(changes.map { $0.change?.description } == ["-0.005695", "-14.161916", "0", nil])
        #expect(changes[3].previous == nil)
    }

    @Test("comparing with no previous table: no trends")
    func firstDay() {
        let changes = RateComparison().compare(table(["KRW": "1350.003043", "USD": "1"], asOf: 1), with: nil)
        #expect(changes.allSatisfy { $0.trend == nil && $0.previous == nil && $0.change == nil })
        #expect(changes.count == 2)
    }
}
