import AggCore
import AggJSON
import AggTestKit
import AggVenues
import Foundation
import Testing

@testable import AggOptions
@testable import AggServices

/// The table, CSV and decimal formatting write bytes directly now; these check them against the
/// string-based code they replaced, kept here as the reference, on every decimal of every
/// recorded venue answer.
@Suite("Output against the reference implementation")
struct OutputReferenceTests {
    /// The formatting code before it worked on bytes, verbatim but for the names.
    enum Reference {
        static func grouped(_ value: Decimal) -> String {
            group(value.description)
        }

        static func fixed(_ value: Decimal, places: Int, grouping: Bool = true) -> String {
            let text = padded(DecimalRounding.rounded(value, places: places).description, places: places)
            return grouping ? group(text) : text
        }

        static func padded(_ text: String, places: Int) -> String {
            let parts = text.split(separator: ".", maxSplits: 1)
            let fraction = parts.count > 1 ? String(parts[1]) : ""
            guard places > 0 else { return String(parts.first ?? "0") }
            return String(parts.first ?? "0") + "." + fraction
                + String(repeating: "0", count: max(0, places - fraction.count))
        }

        static func price(_ value: Decimal, currency: String) -> String {
            let text = value.description
            let fraction = text.split(separator: ".", maxSplits: 1).dropFirst().first?.count ?? 0
            return group(padded(text, places: max(DecimalFormatting.minorUnits(of: currency), fraction)))
        }

        static func percent(_ value: Decimal) -> String {
            let text = fixed(value, places: 2)
            return (value > 0 ? "+" : "") + text + "%"
        }

        static func group(_ text: String) -> String {
            var integer = Substring(text)
            var sign = ""
            if integer.hasPrefix("-") {
                sign = "-"
                integer = integer.dropFirst()
            }
            var fraction = ""
            if let point = integer.firstIndex(of: ".") {
                fraction = String(integer[point...])
                integer = integer[..<point]
            }
            var groups: [Substring] = []
            var end = integer.endIndex
            while end > integer.startIndex {
                let start =
                    integer.index(end, offsetBy: -3, limitedBy: integer.startIndex) ?? integer.startIndex
                groups.insert(integer[start..<end], at: 0)
                end = start
            }
            return sign + groups.joined(separator: ",") + fraction
        }

        static func csv(header: [String], rows: [[String]]) -> String {
            ([header] + rows).map { $0.map(escape).joined(separator: ",") }.joined(separator: "\n")
        }

        /// A field with a comma or quote is quoted; one with a terminal control (a line break
        /// among them) is quoted with each control in `TerminalText`'s visible form.
        static func escape(_ field: String) -> String {
            let shown = TerminalText.escape(field)
            guard shown != field || field.unicodeScalars.contains(where: { $0 == "," || $0 == "\"" }) else {
                return field
            }
            return "\"" + shown.replacing("\"", with: "\"\"") + "\""
        }
    }

    /// Every distinct decimal in the fixtures; the first 2,000 also negated and divided by ten
    /// (more fraction digits).
    static let values: [Decimal] = {
        var values: [Decimal] = []
        let files =
            (FileManager.default.enumerator(atPath: Fixtures.directory.path)?.compactMap { $0 as? String } ?? [])
            .filter { $0.hasSuffix(".json") }.sorted()
        for file in files {
            guard let bytes = try? Fixtures.bytes(file), let document = try? JSONParser.parse(bytes) else { continue }
            var texts: [String] = []
            collect(document, into: &texts)
            values += texts.compactMap { try? DecimalText.parse($0) }
        }
        // Equal values format alike: one of each is enough.
        var seen: Set<String> = []
        let distinct = values.filter { seen.insert($0.description).inserted }
        return distinct + distinct.prefix(2_000).flatMap { [-$0, $0 / 10] }
    }()

    private static func collect(_ value: JSONValue, into texts: inout [String]) {
        switch value {
        case .number(let text), .string(let text): texts.append(text)
        case .array(let elements): for element in elements { collect(element, into: &texts) }
        case .object(let object): for member in object { collect(member.value, into: &texts) }
        case .null, .bool: break
        }
    }

    @Test("prices, fixed places, percents and grouping agree on every fixture decimal")
    func decimals() async {
        #expect(Self.values.count > 5_000)
        var mismatches = 0
        for (index, value) in (Self.values + [0, .nan]).enumerated() {
            // Long and synchronous: let the tests that measure time have the threads now and then.
            if index % 200 == 0 { await Task.yield() }
            var agree = DecimalFormatting.grouped(value) == Reference.grouped(value)
            agree = agree && DecimalFormatting.percent(value) == Reference.percent(value)
            for currency in ["KRW", "BTC"] {
                agree =
                    agree
                    && DecimalFormatting.price(value, currency: currency) == Reference.price(value, currency: currency)
            }
            for places in [0, 2, 8] {
                agree =
                    agree && DecimalFormatting.fixed(value, places: places) == Reference.fixed(value, places: places)
            }
            agree =
                agree
                && DecimalFormatting.fixed(value, places: 3, grouping: false)
                    == Reference.fixed(value, places: 3, grouping: false)
            if !agree {
                mismatches += 1
                if mismatches <= 5 { Issue.record("formatting of \(value.description) differs from the reference") }
            }
        }
        #expect(mismatches == 0)
    }

    @Test(
        "padded and group agree on texts of every shape",
        arguments: ["", "0", "5", "5.", "-5", "1234", "-1234567.891", "NaN", "12.3456"])
    func texts(_ text: String) {
        #expect(DecimalFormatting.group(text) == Reference.group(text))
        for places in [-1, 0, 1, 2, 6] {
            #expect(DecimalFormatting.padded(text, places: places) == Reference.padded(text, places: places))
        }
    }

    @Test("CSV agrees, quoting included")
    func csv() {
        let rows = [
            ["plain", "a,b", "say \"hi\"", "two\nlines", "cr\rhere", "crlf\r\nhere", ""], [], ["í한글", "x"],
        ]
        #expect(CSVWriter.render(header: ["h1", "h2"], rows: rows) == Reference.csv(header: ["h1", "h2"], rows: rows))
        #expect(CSVWriter.render(header: [], rows: []) == Reference.csv(header: [], rows: []))
        #expect(CSVWriter.render(header: ["a\r\nb"], rows: []) == #""a\x0D\x0Ab""#)
    }

    @Test("tables agree, every width and style", arguments: [20, 60, 80, 200], [false, true])
    func table(width: Int, colour: Bool) async throws {
        let baseURL = "https://api.bithumb.com"
        let bithumb = try AdapterRegistry.standard.makeAdapter(
            id: "bithumb",
            environment: AdapterEnvironment(baseURL: baseURL, http: try Fixtures.client("bithumb", baseURL: baseURL)))
        let quotes = try await bithumb.allQuotes(quotedIn: "KRW")
        try #require(quotes.count == 480)
        let style = TextStyle(enabled: colour)
        var table = TextTable(columns: [
            .init("EXCHANGE"), .init("MARKET"), .init("LAST", .right), .init("24H", .right, priority: 6),
            .init("이름", priority: 2), .init("VOLUME", .right, priority: 5), .init("UPDATED (UTC)", priority: 1),
        ])
        for (index, quote) in quotes.enumerated() {
            let percent = quote.changePercent
            var cells: [TextTable.Cell] = [
                .init(quote.exchange), .init(quote.market.description),
                .init(DecimalFormatting.price(quote.last, currency: "KRW")),
                .init(percent.map(DecimalFormatting.percent) ?? "-", paint: { [style] in style.signed($0, percent) }),
                .init(index % 3 == 0 ? "비트코인" : ""),
                .init(quote.baseVolume.map { DecimalFormatting.fixed($0, places: 2) } ?? "-"),
                .init(quote.timestamp.map(TableTime.text) ?? "-"),
            ]
            // Short rows too, as failures have.
            if index % 7 == 0 { cells = Array(cells.prefix(3)) }
            table.append(cells)
        }
        #expect(table.render(width: width, style: style) == Reference.render(table, width: width, style: style))
    }
}

extension OutputReferenceTests.Reference {
    /// `TextTable.render` before it wrote bytes.
    static func render(_ table: TextTable, width: Int, style: TextStyle) -> String {
        let columns = table.columns
        let rows = table.rows
        func displayWidth(_ text: String) -> Int {
            text.unicodeScalars.reduce(0) { $0 + DisplayWidth.width(of: $1) }
        }
        func columnWidths() -> [Int] {
            columns.indices.map { index in
                rows.reduce(displayWidth(columns[index].title)) { partial, row in
                    row.indices.contains(index) ? max(partial, displayWidth(row[index].text)) : partial
                }
            }
        }
        func line(
            _ cells: [(text: String, paint: (@Sendable (String) -> String)?, column: Int)], widths: [Int],
            paintHeader: (@Sendable (String) -> String)?
        ) -> String {
            var parts: [String] = []
            for (position, cell) in cells.enumerated() {
                let padding = String(repeating: " ", count: max(0, widths[cell.column] - displayWidth(cell.text)))
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
        var visible = Array(columns.indices)
        var widths = columnWidths()
        func total(_ indices: [Int]) -> Int {
            indices.reduce(0) { $0 + widths[$1] } + max(0, indices.count - 1) * 2
        }
        while total(visible) > width {
            let droppable = visible.filter { columns[$0].priority > 0 }
            guard let victim = droppable.min(by: { columns[$0].priority < columns[$1].priority }) else { break }
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
}
