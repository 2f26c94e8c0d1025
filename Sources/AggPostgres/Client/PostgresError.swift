import AggCore

/// A failure inside the PostgreSQL layer, with the text libpq or the server gave.
///
/// It carries no connection URL: `PostgresSession` removes the password from the message and
/// the store names the server (without the password) when it turns this into an `AggError.store`.
struct PostgresError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Where the failure happened.
    enum Kind: Sendable, Equatable {
        /// The connection could not be made, or broke.
        case connection
        /// The server refused or failed a statement.
        case statement
        /// A value agg sends or reads back is not what the schema promises.
        case data
    }

    var kind: Kind
    /// The server's five-character SQLSTATE (`23514`), when the server reported one.
    var sqlState: String?
    /// The server's or libpq's own text, on one line.
    var message: String

    init(_ kind: Kind, _ message: String, sqlState: String? = nil) {
        self.kind = kind
        self.sqlState = sqlState
        self.message = message.split(whereSeparator: \.isNewline).map { $0.trimmingSpaces }.joined(separator: " ")
    }

    /// No partition of the table accepts the row's time (SQLSTATE 23514, which a failed CHECK
    /// constraint shares).
    var isMissingPartition: Bool { sqlState == "23514" && message.contains("no partition of relation") }

    /// The message, followed by the SQLSTATE when the server reported one.
    var description: String {
        sqlState.map { "\(message) (SQLSTATE \($0))" } ?? message
    }

    /// This failure as agg's error, naming the server by `location` (never its password).
    func storeError(_ location: String) -> AggError {
        .store("PostgreSQL \(location): \(description)")
    }
}

extension Substring {
    fileprivate var trimmingSpaces: Substring {
        var text = self
        while text.first == " " || text.first == "\t" { text = text.dropFirst() }
        while text.last == " " || text.last == "\t" { text = text.dropLast() }
        return text
    }
}
