/// A table for the terminal: aligned columns, a header, and columns dropped (least important
/// first) when the terminal is too narrow.
public struct TextTable: Sendable {
    public enum Alignment: Sendable { case left, right }

    public struct Column: Sendable {
        public var title: String
        public var alignment: Alignment
        /// Higher survives longer when the table must shrink; 0 is never dropped.
        public var priority: Int

        public init(_ title: String, _ alignment: Alignment = .left, priority: Int = 0) {
            self.title = title
            self.alignment = alignment
            self.priority = priority
        }
    }

    /// A cell's text and, separately, how to colour it, so widths ignore escape codes.
    public struct Cell: Sendable {
        /// What the cell shows. Control characters in it (a venue's text may hold any) are
        /// shown escaped (`TerminalText.escape`), never sent to the terminal.
        public var text: String
        public var paint: (@Sendable (String) -> String)?

        public init(_ text: String, paint: (@Sendable (String) -> String)? = nil) {
            self.text = TerminalText.escape(text)
            self.paint = paint
        }
    }

    public var columns: [Column]
    public var rows: [[Cell]] = []

    public init(columns: [Column]) {
        self.columns = columns
    }

    public mutating func append(_ cells: [Cell]) {
        rows.append(cells)
    }

    public mutating func append(texts: [String]) {
        rows.append(texts.map { Cell($0) })
    }

    /// The table as lines no wider than `width` where dropping columns allows.
    public func render(width: Int, style: TextStyle) -> String {
        var visible = Array(columns.indices)
        var widths = columnWidths()
        func total(_ indices: [Int]) -> Int {
            indices.reduce(0) { $0 + widths[$1] } + max(0, indices.count - 1) * 2
        }
        while total(visible) > width {
            let droppable = visible.filter { columns[$0].priority > 0 }
            guard let victim = droppable.min(by: { columns[$0].priority < columns[$1].priority }) else {
                break
            }
            visible.removeAll { $0 == victim }
        }
        widths = columnWidths()
        var lines: [String] = []
        lines.append(
            line(
                visible.map { (columns[$0].title, nil, $0) }, widths: widths,
                paintHeader: style.enabled ? style.bold : nil))
        for row in rows {
            lines.append(
                line(
                    visible.map {
                        (
                            row.indices.contains($0) ? row[$0].text : "",
                            row.indices.contains($0) ? row[$0].paint : nil, $0
                        )
                    }, widths: widths, paintHeader: nil))
        }
        return lines.joined(separator: "\n")
    }

    private func columnWidths() -> [Int] {
        columns.indices.map { index in
            rows.reduce(DisplayWidth.of(columns[index].title)) { partial, row in
                row.indices.contains(index) ? max(partial, DisplayWidth.of(row[index].text)) : partial
            }
        }
    }

    private func line(
        _ cells: [(text: String, paint: (@Sendable (String) -> String)?, column: Int)], widths: [Int],
        paintHeader: (@Sendable (String) -> String)?
    ) -> String {
        var parts: [String] = []
        for (position, cell) in cells.enumerated() {
            let padding = String(
                repeating: " ", count: max(0, widths[cell.column] - DisplayWidth.of(cell.text)))
            let painted = (paintHeader ?? cell.paint).map { $0(cell.text) } ?? cell.text
            let isLast = position == cells.count - 1
            switch columns[cell.column].alignment {
            case .left: parts.append(isLast ? painted : painted + padding)
            case .right: parts.append(padding + painted)
            }
        }
        let line = parts.joined(separator: "  ")
        guard let end = line.lastIndex(where: { $0 != " " }) else { return "" }
        return String(line[...end])
    }
}

/// Columns a string occupies in a terminal: East Asian wide characters (Hangul, CJK) take two.
public enum DisplayWidth {
    public static func of(_ text: String) -> Int {
        text.unicodeScalars.reduce(0) { $0 + width(of: $1) }
    }

    static func width(of scalar: Unicode.Scalar) -> Int {
        switch scalar.value {
        case 0x0300...0x036F, 0x200B...0x200F, 0xFE00...0xFE0F: 0
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
            0xA000...0xA4CF,
            0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
            0x1F300...0x1F64F,
            0x1F900...0x1F9FF, 0x20000...0x3FFFD:
            2
        default: 1
        }
    }
}
