import FoundationEssentials

/// A line chart for the terminal, drawn with braille characters (two dots across and four down
/// per character cell), so that it needs no colour and no graphics protocol.
///
/// The renderer is a pure function of the series and the size. Prices stay exact: the minimum
/// and maximum labels are made from the series' own `Decimal`s; `Double` only places dots.
package enum LineChart {
    /// The bits of braille dots by column (0 left, 1 right) and row (0 top to 3 bottom).
    private static let dotBits: [[UInt32]] = [[0x01, 0x02, 0x04, 0x40], [0x08, 0x10, 0x20, 0x80]]

    /// `values` (oldest first) as `height` lines at most `width` columns wide: the maximum's label
    /// on the top line, the minimum's on the bottom line, an axis, then the plot.
    ///
    /// When the series has more points than the plot has dot columns, several points share a
    /// column and are joined by a vertical stroke, so no extreme is lost; when it has fewer, the
    /// points spread across the width, joined by straight segments.
    ///
    /// - Parameters:
    ///   - label: Text for the minimum and maximum.
    ///   - xLabels: Text under the left and right ends of the plot (the first and last times).
    ///   - paint: Applied to the plot part of each line (colour); labels stay plain.
    static func render(
        _ values: [Decimal], width: Int, height: Int, label: (Decimal) -> String,
        xLabels: (first: String, last: String)? = nil, paint: (String) -> String = { $0 }
    ) -> [String] {
        guard let minimum = values.min(), let maximum = values.max(), height > 0 else { return [] }
        let top = label(maximum)
        let bottom = label(minimum)
        let labelWidth = max(DisplayWidth.of(top), DisplayWidth.of(bottom))
        let columns = max(1, width - labelWidth - 2)
        let grid = plot(values, minimum: minimum, maximum: maximum, columns: columns, rows: height)

        var lines: [String] = []
        for row in 0..<height {
            let text: String
            if row == 0 {
                text = top
            } else if row == height - 1 {
                text = bottom
            } else {
                text = ""
            }
            let padding = String(repeating: " ", count: labelWidth - DisplayWidth.of(text))
            let axis = row == 0 || row == height - 1 ? "┤" : "│"
            var cells = ""
            for column in 0..<columns {
                var bits: UInt32 = 0
                for dx in 0..<2 {
                    for dy in 0..<4 where grid[row * 4 + dy][column * 2 + dx] {
                        bits |= dotBits[dx][dy]
                    }
                }
                cells += bits == 0 ? " " : String(Character(Unicode.Scalar(0x2800 + bits) ?? " "))
            }
            while cells.hasSuffix(" ") { cells.removeLast() }
            lines.append(padding + text + " " + axis + (cells.isEmpty ? "" : paint(cells)))
        }
        if let xLabels {
            let indent = String(repeating: " ", count: labelWidth + 2)
            let gap = columns - DisplayWidth.of(xLabels.first) - DisplayWidth.of(xLabels.last)
            lines.append(
                indent + xLabels.first + (gap >= 1 ? String(repeating: " ", count: gap) + xLabels.last : ""))
        }
        return lines
    }

    /// Which dots are set: `rows * 4` lines of `columns * 2` dots, top line first.
    private static func plot(_ values: [Decimal], minimum: Decimal, maximum: Decimal, columns: Int, rows: Int)
        -> [[Bool]]
    {
        let dotsAcross = columns * 2
        let dotsDown = rows * 4
        var grid = Array(repeating: Array(repeating: false, count: dotsAcross), count: dotsDown)
        let count = values.count
        func x(_ index: Int) -> Int {
            if count == 1 { return 0 }
            if count <= dotsAcross {
                return Int((Double(index) * Double(dotsAcross - 1) / Double(count - 1)).rounded())
            }
            return index * dotsAcross / count
        }
        let range = maximum - minimum
        func y(_ value: Decimal) -> Double {
            guard range > 0 else { return Double(dotsDown / 2) }
            let fraction = Double(((value - minimum) / range).description) ?? 0
            return fraction * Double(dotsDown - 1)
        }
        func fill(_ column: Int, from low: Double, to high: Double) {
            let lower = max(0, Int(min(low, high).rounded()))
            let upper = min(dotsDown - 1, Int(max(low, high).rounded()))
            guard lower <= upper else { return }
            for level in lower...upper { grid[dotsDown - 1 - level][column] = true }
        }
        var previous = (x: x(0), y: y(values[0]))
        fill(previous.x, from: previous.y, to: previous.y)
        for index in 1..<max(1, count) {
            let current = (x: x(index), y: y(values[index]))
            if current.x == previous.x {
                fill(current.x, from: previous.y, to: current.y)
            } else {
                var last = previous.y
                for column in previous.x...current.x {
                    let t = Double(column - previous.x) / Double(current.x - previous.x)
                    let level = previous.y + t * (current.y - previous.y)
                    fill(column, from: last, to: level)
                    last = level
                }
            }
            previous = current
        }
        return grid
    }
}
