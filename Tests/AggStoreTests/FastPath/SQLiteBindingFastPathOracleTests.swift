import AggTestKit
import Foundation
import Testing

@testable import AggStore

/// The oracle of the binding fast path (`runOnce(arena:)`: texts and decimals written into a
/// reused arena and bound in place): the same rows stored through the plain version
/// (`runOncePlain`, every text copied by SQLite) read back as the same values, of the same
/// types, and as what was bound; with an arena of the usual size and with one so small that
/// most texts overflow it and take the plain path.
@Suite("SQLite binding fast path oracle")
struct SQLiteBindingFastPathOracleTests {
    struct Row: Equatable {
        var id: Int64
        var text: String?
        var decimal: Decimal?
        var number: Int64?
    }

    /// What a table holds, column by column, with SQLite's type of each value.
    struct Stored: Equatable {
        var id: Int64
        var text: String?
        var decimal: String?
        var number: Int64?
        var types: String
    }

    static let texts: [String?] = [
        nil, "", "BTC", "KRW-BTC", "비트코인", "say \"hi\"\n", "😀", String(repeating: "x", count: 5_000),
        String(repeating: "가", count: 40),
    ]

    static let decimals: [Decimal?] = [
        nil, 0, 1, -1, decimal("80630000"), decimal("0.00000001"),
        decimal("-12345678901234567890.123456789012345678"),
        Decimal(sign: .plus, exponent: 127, significand: 1), Decimal(sign: .minus, exponent: -128, significand: 7),
    ]

    static func rows(count: Int) -> [Row] {
        var state: UInt64 = 0x5_0A71_7E
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        return (0..<count).map { index in
            Row(
                id: Int64(index), text: texts[Int(next() % UInt64(texts.count))],
                decimal: next() % 3 == 0
                    ? Decimal(
                        sign: next() % 2 == 0 ? .plus : .minus, exponent: Int(next() % 20) - 12,
                        significand: Decimal(next()))
                    : decimals[Int(next() % UInt64(decimals.count))],
                number: next() % 4 == 0 ? nil : Int64(bitPattern: next() << 20))
        }
    }

    static func store(_ rows: [Row], fast: Bool, arenaCapacity: Int) throws -> [Stored] {
        let folder = NSTemporaryDirectory() + "agg-binding-oracle-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let connection = try SQLiteConnection.open(path: folder + "/oracle.sqlite")
        try connection.execute("CREATE TABLE rows (id INTEGER, text TEXT, decimal TEXT, number INTEGER)")
        let insert = try connection.prepare("INSERT INTO rows VALUES (?1, ?2, ?3, ?4)")
        let arena = SQLiteTextArena(capacity: arenaCapacity)
        try connection.execute("BEGIN")
        for row in rows {
            let body = { (parameters: inout SQLiteParameters) throws(SQLiteError) in
                try parameters.bind(row.id, at: 1)
                try parameters.bind(row.text, at: 2)
                try parameters.bind(decimal: row.decimal, at: 3)
                try parameters.bind(row.number, at: 4)
            }
            if fast { try insert.runOnce(arena: arena, body) } else { try insert.runOncePlain(body) }
        }
        try connection.execute("COMMIT")
        let select = try connection.prepare(
            "SELECT id, text, decimal, number, typeof(text) || ' ' || typeof(decimal) || ' ' || typeof(number) "
                + "FROM rows ORDER BY id")
        var stored: [Stored] = []
        while try select.step() {
            stored.append(
                Stored(
                    id: try select.requiredInt64(at: 0), text: select.text(at: 1), decimal: select.text(at: 2),
                    number: select.int64(at: 3), types: try select.requiredText(at: 4)))
        }
        return stored
    }

    @Test("stores what the plain binding stores, as bound", arguments: [4_096, 24])
    func agreesWithPlain(arenaCapacity: Int) throws {
        let rows = Self.rows(count: 2_000)
        let fast = try Self.store(rows, fast: true, arenaCapacity: arenaCapacity)
        let plain = try Self.store(rows, fast: false, arenaCapacity: arenaCapacity)
        #expect(fast.count == 2_000)
        Self.expectSame(fast, plain)
        let expected = rows.map { row in
            Stored(
                id: row.id, text: row.text, decimal: row.decimal?.description, number: row.number,
                types: [
                    row.text == nil ? "null" : "text", row.decimal == nil ? "null" : "text",
                    row.number == nil ? "null" : "integer",
                ].joined(separator: " "))
        }
        Self.expectSame(fast, expected)
    }

    /// The rows that differ, the first three of them only (a row can hold 5,000 characters).
    static func expectSame(_ actual: [Stored], _ expected: [Stored], sourceLocation: SourceLocation = #_sourceLocation)
    {
        #expect(actual.count == expected.count, sourceLocation: sourceLocation)
        let differing = zip(actual, expected).filter { $0 != $1 }
        for (got, wanted) in differing.prefix(3) {
            Issue.record(
                "row \(got.id): \(String(describing: got).prefix(300)) instead of \(String(describing: wanted).prefix(300))",
                sourceLocation: sourceLocation)
        }
        #expect(differing.isEmpty, "\(differing.count) rows differ", sourceLocation: sourceLocation)
    }

    @Test("NaN is refused the same way on both paths")
    func nan() throws {
        let rows = [Row(id: 1, text: "a", decimal: .nan, number: 1)]
        for fast in [true, false] {
            #expect(throws: SQLiteError.self) { try Self.store(rows, fast: fast, arenaCapacity: 4_096) }
        }
    }
}
