import CSQLite

/// A failure inside the SQLite layer, with the text SQLite gave at the moment it happened.
///
/// It carries no file path: `Store` adds the path and the operation when it turns this into an
/// `AggError.store`, so that the message reads "cannot open /x/agg.sqlite: file is not a database".
struct SQLiteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The extended result code, or `nil` for a problem found in the stored data rather than by SQLite.
    var code: Int32?
    /// The text of `sqlite3_errmsg`, or a description of the bad data.
    var message: String

    /// A failure reported by SQLite.
    init(code: Int32, message: String) {
        self.code = code
        self.message = message
    }

    /// A failure found in the data, such as a rate that is not decimal text.
    init(invalidData message: String) {
        self.code = nil
        self.message = message
    }

    /// Whether another connection held a lock for longer than this one would wait
    /// (`SQLITE_BUSY` or one of its extended codes).
    var isBusy: Bool {
        guard let code else { return false }
        return code & 0xFF == SQLITE_BUSY
    }

    /// The message, followed by the extended result code when SQLite reported one.
    var description: String {
        guard let code else { return message }
        return "\(message) (SQLite code \(code))"
    }

}
