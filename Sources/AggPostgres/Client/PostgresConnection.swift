import CPostgres
import Glibc

/// Owns one libpq connection (`PGconn*`): the only place that pointer lives.
///
/// Every call blocks the calling thread until the server answers, so only `PostgresSession`
/// uses it, from its own dispatch queue, never from the cooperative pool. The class is not
/// `Sendable`: one thread at a time.
final class PostgresConnection {
    private let handle: OpaquePointer

    private init(handle: OpaquePointer) {
        self.handle = handle
    }

    deinit {
        PQfinish(handle)
    }

    /// Connects with `uri`: agg's defaults first (a 10-second connect timeout and the
    /// application name `agg`, which the URI may override), then the URI, then UTF-8 as the
    /// client encoding, which agg's text reading relies on.
    static func connect(uri: String) throws(PostgresError) -> PostgresConnection {
        let keywords = ["connect_timeout", "application_name", "dbname", "client_encoding"]
        let values = ["10", "agg", uri, "UTF8"]
        let pointer = withCStringArray(keywords) { keywordPointers in
            withCStringArray(values) { valuePointers in
                PQconnectdbParams(keywordPointers, valuePointers, 1)
            }
        }
        guard let pointer else { throw PostgresError(.connection, "libpq could not allocate a connection") }
        let connection = PostgresConnection(handle: pointer)
        guard PQstatus(pointer) == CONNECTION_OK else {
            throw PostgresError(.connection, connection.errorMessage)
        }
        // The server's notices ("relation already exists, skipping") are not failures, and
        // libpq's default prints them on stderr; agg keeps them out of its output.
        PQsetNoticeProcessor(pointer, { _, _ in }, nil)
        return connection
    }

    /// Whether the connection broke (the server restarted, the network failed).
    var isBroken: Bool { PQstatus(handle) != CONNECTION_OK }

    /// Reconnects with the same parameters.
    func reset() throws(PostgresError) {
        PQreset(handle)
        guard PQstatus(handle) == CONNECTION_OK else { throw PostgresError(.connection, errorMessage) }
    }

    /// Runs one or more statements that take no parameters, such as a migration script.
    ///
    /// Only for text agg wrote itself: nothing from outside ever goes into `sql`.
    func executeScript(_ sql: String) throws(PostgresError) {
        let result = PostgresResult(PQexec(handle, sql))
        try result.check(self)
    }

    /// Runs one statement with its parameters sent apart from the SQL text (`$1`, `$2`, ...),
    /// in libpq's text format; `nil` is SQL NULL. Answers the rows, every value as text.
    @discardableResult
    func query(_ sql: String, _ parameters: [String?] = []) throws(PostgresError) -> PostgresRows {
        for parameter in parameters {
            // libpq reads a parameter up to its first NUL: a value holding one would be cut
            // short without an error, so it is refused (PostgreSQL text cannot hold NUL anyway).
            if let parameter, parameter.utf8.contains(0) {
                throw PostgresError(.data, "a value holds a NUL character, which PostgreSQL text cannot store")
            }
        }
        let result = withOptionalCStringArray(parameters) { pointers in
            PostgresResult(PQexecParams(handle, sql, Int32(parameters.count), nil, pointers, nil, nil, 0))
        }
        try result.check(self)
        return result.rows()
    }

    /// Runs `body` in a transaction: commits when it returns, rolls back when it or the commit throws.
    func transaction<Value>(_ body: () throws(PostgresError) -> Value) throws(PostgresError) -> Value {
        try executeScript("BEGIN")
        do throws(PostgresError) {
            let value = try body()
            try executeScript("COMMIT")
            return value
        } catch {
            if PQtransactionStatus(handle) != PQTRANS_IDLE {
                PQclear(PQexec(handle, "ROLLBACK"))
            }
            throw error
        }
    }

    /// libpq's message for the last failure on this connection.
    var errorMessage: String {
        PQerrorMessage(handle).map { String(cString: $0) } ?? "unknown libpq error"
    }
}

/// Owns one `PGresult*` and clears it in `deinit`.
final class PostgresResult {
    private let handle: OpaquePointer?

    init(_ handle: OpaquePointer?) {
        self.handle = handle
    }

    deinit {
        PQclear(handle)
    }

    /// Throws the server's error unless the statement succeeded.
    func check(_ connection: PostgresConnection) throws(PostgresError) {
        guard let handle else {
            throw PostgresError(.connection, connection.errorMessage)
        }
        switch PQresultStatus(handle) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK: return
        default:
            let message = PQresultErrorMessage(handle).map { String(cString: $0) } ?? ""
            // PG_DIAG_SQLSTATE is the character 'C'.
            let state = PQresultErrorField(handle, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
            let kind: PostgresError.Kind = connection.isBroken ? .connection : .statement
            throw PostgresError(kind, message.isEmpty ? connection.errorMessage : message, sqlState: state)
        }
    }

    /// Every row, each value as its text (libpq's text format) or `nil` for NULL, and the
    /// number of rows a command changed.
    func rows() -> PostgresRows {
        guard let handle else { return PostgresRows(values: [], changed: 0) }
        let rowCount = PQntuples(handle)
        let columnCount = PQnfields(handle)
        var values: [[String?]] = []
        values.reserveCapacity(Int(rowCount))
        for row in 0..<rowCount {
            var columns: [String?] = []
            columns.reserveCapacity(Int(columnCount))
            for column in 0..<columnCount {
                if PQgetisnull(handle, row, column) != 0 {
                    columns.append(nil)
                } else {
                    columns.append(PQgetvalue(handle, row, column).map { String(cString: $0) })
                }
            }
            values.append(columns)
        }
        let changed = PQcmdTuples(handle).flatMap { Int(String(cString: $0)) } ?? 0
        return PostgresRows(values: values, changed: changed)
    }
}

/// The answer of one statement, read as text.
struct PostgresRows: Sendable, Equatable {
    /// The rows, each a list of column values (`nil` for NULL).
    var values: [[String?]]
    /// How many rows an INSERT, UPDATE or DELETE changed (`PQcmdTuples`).
    var changed: Int
}

/// Calls `body` with a C array of C strings that live until it returns.
private func withCStringArray<Result>(
    _ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>?) -> Result
) -> Result {
    withOptionalCStringArray(strings.map { Optional($0) }, body)
}

/// Calls `body` with a C array of C strings (NULL for `nil`) that live until it returns.
private func withOptionalCStringArray<Result>(
    _ strings: [String?], _ body: (UnsafePointer<UnsafePointer<CChar>?>?) -> Result
) -> Result {
    let copies: [UnsafeMutablePointer<CChar>?] = strings.map { string in string.flatMap { strdup($0) } }
    defer { copies.forEach { free($0) } }
    // A trailing NULL: PQconnectdbParams reads its arrays up to one.
    let pointers = copies.map { UnsafePointer($0) } + [nil]
    return pointers.withUnsafeBufferPointer { buffer in
        body(buffer.baseAddress)
    }
}
