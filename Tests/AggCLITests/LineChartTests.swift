import Foundation
import Testing

@testable import AggServices

@Suite("line chart")
struct LineChartTests {
    private func label(_ value: Decimal) -> String { DecimalFormatting.grouped(value) }

    /// 9 points over 13 columns (26 dots across, 12 down): a symmetric peak, each point joined
    /// to the next by a stroke, min and max labels on the bottom and top rows.
    @Test("a known series: up and down again, spread over the width")
    func snapshot() {
        let series: [Decimal] = [1000, 2000, 3000, 4000, 5000, 4000, 3000, 2000, 1000]
        let lines = LineChart.render(series, width: 20, height: 3, label: label, xLabels: ("09:00", "09:08"))
        #expect(
            lines == [
                "5,000 ┤    ⢀⡴⠚⠳⣄",
                "      │  ⣠⠖⠋   ⠈⠓⢦⡀",
                "1,000 ┤⣠⠞⠁        ⠙⢦",
                "       09:00   09:08",
            ])
    }

    @Test("more points than dots: strokes keep every extreme; labels are the exact Decimals")
    func dense() {
        let series: [Decimal] = (0..<40).map { Decimal($0 % 2 == 0 ? 100 : 200) } + [Decimal(string: "300.5") ?? 0]
        let lines = LineChart.render(series, width: 10, height: 2, label: label)
        #expect(
            lines == [
                "300.5 ┤  ⢸",
                "  100 ┤⣿⣿⣿",
            ])
    }

    @Test("a flat series draws a middle line; one point draws one dot; nothing draws nothing")
    func edges() {
        #expect(
            LineChart.render([5, 5, 5, 5], width: 8, height: 2, label: label) == [
                "5 ┤⣀⣀⣀⣀⣀",
                "5 ┤",
            ])
        #expect(LineChart.render([7], width: 6, height: 1, label: label) == ["7 ┤⠂"])
        #expect(LineChart.render([], width: 20, height: 4, label: label).isEmpty)
    }

    @Test("paint colours only the plot, so the labels stay plain")
    func paint() {
        let lines = LineChart.render([1, 2], width: 8, height: 2, label: label, paint: { "<" + $0 + ">" })
        #expect(lines.allSatisfy { $0.hasPrefix("2 ┤<") || $0.hasPrefix("1 ┤<") })
    }
}
