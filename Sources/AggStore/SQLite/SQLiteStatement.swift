import AggJSON
import CSQLite
import FoundationEssentials

/// Owns one prepared `sqlite3_stmt*`, finalized in `deinit`.
///
/// It keeps its connection alive, so that the statement is always finalized before the
/// database is closed, and takes error text from it.
final class SQLiteStatement {
    let handle: OpaquePointer
    private let connection: SQLiteConnection

    init(handle: OpaquePointer, connection: SQLiteConnection) {
        self.handle = handle
        self.connection = connection
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// Binds `values` to parameters 1, 2, … in order.
    func bind(_ values: [SQLiteValue]) throws(SQLiteError) {
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            switch value {
            case .text(let text): try bind(text, at: index)
            case .integer(let integer): try bind(integer, at: index)
            case .null: try check(sqlite3_bind_null(handle, index))
            }
        }
    }

    /// Binds `text` to parameter `index` (from 1), or NULL for `nil`.
    func bind(_ text: String?, at index: Int32) throws(SQLiteError) {
        guard var text else { return try check(sqlite3_bind_null(handle, index)) }
        let status = text.withUTF8 { utf8 in
            // A zero-length buffer may have no address, and a null pointer would bind NULL.
            guard let base = utf8.baseAddress else {
                return sqlite3_bind_text(handle, index, "", 0, agg_sqlite_transient())
            }
            return base.withMemoryRebound(to: CChar.self, capacity: utf8.count) {
                sqlite3_bind_text(handle, index, $0, Int32(utf8.count), agg_sqlite_transient())
            }
        }
        try check(status)
    }

    /// Binds `value` to parameter `index` (from 1), or NULL for `nil`.
    func bind(_ value: Int64?, at index: Int32) throws(SQLiteError) {
        guard let value else { return try check(sqlite3_bind_null(handle, index)) }
        try check(sqlite3_bind_int64(handle, index, value))
    }

    func check(_ status: Int32) throws(SQLiteError) {
        guard status == SQLITE_OK else { throw connection.lastError(status) }
    }

    /// Clears the bindings and rewinds the statement so that it can run again.
    func reset() {
        // reset repeats the error of the last step, which was already thrown.
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// Advances to the next row: `true` when there is one, `false` when the statement is done.
    func step() throws(SQLiteError) -> Bool {
        let status = sqlite3_step(handle)
        switch status {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw connection.lastError(status)
        }
    }

    /// Runs the statement to completion and answers how many rows it changed.
    @discardableResult
    func run() throws(SQLiteError) -> Int {
        while try step() {}
        return connection.changes
    }

    /// Whether the column of the current row is NULL.
    func isNull(at column: Int32) -> Bool {
        sqlite3_column_type(handle, column) == SQLITE_NULL
    }

    /// The column of the current row as text, `nil` when NULL.
    func text(at column: Int32) -> String? {
        guard !isNull(at: column), let bytes = sqlite3_column_text(handle, column) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    /// The column of the current row as an integer, `nil` when NULL.
    func int64(at column: Int32) -> Int64? {
        isNull(at: column) ? nil : sqlite3_column_int64(handle, column)
    }

    /// The column of the current row as text that must be present.
    func requiredText(at column: Int32) throws(SQLiteError) -> String {
        guard let text = text(at: column) else { throw missing(column) }
        return text
    }

    /// The column of the current row as an integer that must be present.
    func requiredInt64(at column: Int32) throws(SQLiteError) -> Int64 {
        guard let value = int64(at: column) else { throw missing(column) }
        return value
    }

    /// The column of the current row as an exact decimal stored as text, `nil` when NULL.
    func decimal(at column: Int32) throws(SQLiteError) -> Decimal? {
        guard let text = text(at: column) else { return nil }
        do throws(DecimalText.Failure) {
            return try DecimalText.parse(text)
        } catch {
            throw SQLiteError(invalidData: "column \(columnName(column)) holds \(error)")
        }
    }

    /// The column of the current row as an exact decimal that must be present.
    func requiredDecimal(at column: Int32) throws(SQLiteError) -> Decimal {
        guard let value = try decimal(at: column) else { throw missing(column) }
        return value
    }

    private func missing(_ column: Int32) -> SQLiteError {
        SQLiteError(invalidData: "column \(columnName(column)) is unexpectedly NULL")
    }

    private func columnName(_ column: Int32) -> String {
        sqlite3_column_name(handle, column).map { String(cString: $0) } ?? String(column)
    }
}

extension SQLiteValue {
    /// A decimal as its exact plain text, which `DecimalText.parse` reads back unchanged.
    ///
    /// - Throws: for NaN, which has no decimal text and could not be read back.
    static func decimal(_ value: Decimal?) throws(SQLiteError) -> SQLiteValue {
        guard let value else { return .null }
        guard !value.isNaN else { throw SQLiteError(invalidData: "NaN is not a number that can be stored") }
        return .text(DecimalText.format(value))
    }
}
