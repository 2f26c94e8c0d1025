import AggOptions

/// A table for the terminal: aligned columns, a header, and columns dropped (least important
/// first) when the terminal is too narrow.
package struct TextTable: Sendable {
    package enum Alignment: Sendable { case left, right }

    package struct Column: Sendable {
        var title: String
        var alignment: Alignment
        /// Higher survives longer when the table must shrink; 0 is never dropped.
        var priority: Int

        package init(_ title: String, _ alignment: Alignment = .left, priority: Int = 0) {
            self.title = title
            self.alignment = alignment
            self.priority = priority
        }
    }

    /// A cell's text and, separately, how to colour it, so widths ignore escape codes.
    package struct Cell: Sendable {
        /// What the cell shows. Control characters in it (a venue's text may hold any) are
        /// shown escaped (`TerminalText.escape`), never sent to the terminal.
        var text: String
        var paint: (@Sendable (String) -> String)?

        package init(_ text: String, paint: (@Sendable (String) -> String)? = nil) {
            self.text = TerminalText.escape(text)
            self.paint = paint
        }
    }

    var columns: [Column]
    var rows: [[Cell]] = []

    package init(columns: [Column]) {
        self.columns = columns
    }

    mutating func append(_ cells: [Cell]) {
        rows.append(cells)
    }

    mutating func append(texts: [String]) {
        rows.append(texts.map { Cell($0) })
    }

    /// The table as lines no wider than `width` where dropping columns allows.
    ///
    /// Every cell's display width is measured once, and the lines are written into one byte
    /// buffer: a market-wide table has thousands of cells.
    func render(width: Int, style: TextStyle) -> String {
        let headerWidths = columns.map { DisplayWidth.of($0.title) }
        let cellWidths = rows.map { row in row.map { DisplayWidth.of($0.text) } }
        var widths = headerWidths
        for row in cellWidths {
            for (index, cellWidth) in row.enumerated() where index < widths.count {
                widths[index] = max(widths[index], cellWidth)
            }
        }
        let visible = visibleColumns(widths: widths, width: width)
        func total(_ indices: [Int]) -> Int {
            indices.reduce(0) { $0 + widths[$1] } + max(0, indices.count - 1) * 2
        }
        var output: [UInt8] = []
        output.reserveCapacity((rows.count + 1) * (total(visible) + 1))
        let headerPaint: (@Sendable (String) -> String)? = style.enabled ? style.bold : nil
        appendLine(
            to: &output, visible: visible, widths: widths,
            cell: { (columns[$0].title, headerWidths[$0], headerPaint) })
        for (row, rowWidths) in zip(rows, cellWidths) {
            output.append(UInt8(ascii: "\n"))
            appendLine(to: &output, visible: visible, widths: widths) { column in
                row.indices.contains(column) ? (row[column].text, rowWidths[column], row[column].paint) : ("", 0, nil)
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The indices of the columns shown at `width`: the least important are dropped first
    /// until the table fits, or only columns of priority 0 are left.
    func visibleColumns(width: Int) -> [Int] {
        var widths = columns.map { DisplayWidth.of($0.title) }
        for row in rows {
            for (index, cell) in row.enumerated() where index < widths.count {
                widths[index] = max(widths[index], DisplayWidth.of(cell.text))
            }
        }
        return visibleColumns(widths: widths, width: width)
    }

    private func visibleColumns(widths: [Int], width: Int) -> [Int] {
        var visible = Array(columns.indices)
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
        return visible
    }

    /// Appends one line: the visible columns' cells padded to `widths`, two spaces apart, with
    /// the spaces at its end trimmed.
    private func appendLine(
        to output: inout [UInt8], visible: [Int], widths: [Int],
        cell: (Int) -> (text: String, width: Int, paint: (@Sendable (String) -> String)?)
    ) {
        let start = output.count
        for (position, column) in visible.enumerated() {
            let (text, textWidth, paint) = cell(column)
            if position > 0 { output.append(contentsOf: [UInt8(ascii: " "), UInt8(ascii: " ")]) }
            let padding = repeatElement(UInt8(ascii: " "), count: max(0, widths[column] - textWidth))
            let painted = paint.map { $0(text) } ?? text
            switch columns[column].alignment {
            case .left:
                output.append(contentsOf: painted.utf8)
                if position < visible.count - 1 { output.append(contentsOf: padding) }
            case .right:
                output.append(contentsOf: padding)
                output.append(contentsOf: painted.utf8)
            }
        }
        while output.count > start, output[output.count - 1] == UInt8(ascii: " ") { output.removeLast() }
    }
}

/// Columns a string occupies in a terminal: East Asian wide characters (Hangul, CJK) take two.
package enum DisplayWidth {
    static func of(_ text: String) -> Int {
        // Every ASCII character takes one column.
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.utf8.count }
        return text.unicodeScalars.reduce(0) { $0 + width(of: $1) }
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
