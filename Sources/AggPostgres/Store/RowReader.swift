import AggCore
import AggJSON
import FoundationEssentials

/// Reads one row's text columns in order, checking each against what the schema promises.
struct RowReader {
    private let row: [String?]
    private var index = 0

    init(_ row: [String?]) {
        self.row = row
    }

    private mutating func next() throws(PostgresError) -> String? {
        guard index < row.count else {
            throw PostgresError(.data, "a row has \(row.count) columns, fewer than expected")
        }
        defer { index += 1 }
        return row[index]
    }

    /// A non-NULL text column.
    mutating func text() throws(PostgresError) -> String {
        guard let text = try next() else { throw PostgresError(.data, "column \(index) is NULL") }
        return text
    }

    /// A text column that may be NULL.
    mutating func optionalText() throws(PostgresError) -> String? {
        try next()
    }

    /// A `NUMERIC` column, read exactly through agg's strict decimal grammar.
    mutating func decimal() throws(PostgresError) -> Decimal {
        try Self.decimal(try text())
    }

    /// A `NUMERIC` column that may be NULL.
    mutating func optionalDecimal() throws(PostgresError) -> Decimal? {
        guard let text = try next() else { return nil }
        return try Self.decimal(text)
    }

    /// Whole milliseconds since 1970 (an `int8` column).
    mutating func timestamp() throws(PostgresError) -> Timestamp {
        try Self.timestamp(try text())
    }

    /// Whole milliseconds since 1970 that may be NULL.
    mutating func optionalTimestamp() throws(PostgresError) -> Timestamp? {
        guard let text = try next() else { return nil }
        return try Self.timestamp(text)
    }

    /// A `boolean` column (`t` or `f` in libpq's text format).
    mutating func boolean() throws(PostgresError) -> Bool {
        switch try text() {
        case "t": return true
        case "f": return false
        case let other: throw PostgresError(.data, "'\(other.prefix(20))' is not a boolean")
        }
    }

    private static func decimal(_ text: String) throws(PostgresError) -> Decimal {
        do throws(DecimalText.Failure) {
            return try DecimalText.parse(text)
        } catch {
            throw PostgresError(.data, "a stored value is not an exact decimal: \(error)")
        }
    }

    private static func timestamp(_ text: String) throws(PostgresError) -> Timestamp {
        guard let milliseconds = Int64(text) else {
            throw PostgresError(.data, "'\(text.prefix(30))' is not a time in milliseconds")
        }
        return Timestamp(millisecondsSince1970: milliseconds)
    }
}
