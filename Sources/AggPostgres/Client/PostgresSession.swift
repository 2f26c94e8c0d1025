import Dispatch

/// One PostgreSQL connection and the serial dispatch queue that is the only place it is used.
///
/// libpq's calls block their thread until the server answers (a slow query, a lock wait, a
/// network timeout). Swift's cooperative pool must never block (it has as many threads as
/// cores), so every call runs on this session's own queue, and the async caller waits on a
/// continuation that the queue resumes. One statement at a time runs on a connection; callers
/// queue behind it.
///
/// `@unchecked Sendable` because the compiler cannot see the invariant that makes it safe: the
/// non-`Sendable` connection is touched only by blocks running on `queue`, which is serial, so
/// no two threads ever use it at once, and it never leaves those blocks.
final class PostgresSession: @unchecked Sendable {
    private let queue: DispatchQueue
    private let connection: PostgresConnection
    /// The URL, for removing its password from every message.
    let url: PostgresURL

    private init(queue: DispatchQueue, connection: PostgresConnection, url: PostgresURL) {
        self.queue = queue
        self.connection = connection
        self.url = url
    }

    /// Connects to `url`, off the cooperative pool.
    static func connect(_ url: PostgresURL) async throws(PostgresError) -> PostgresSession {
        let queue = DispatchQueue(label: "agg.postgres")
        let outcome: Result<PostgresConnection, PostgresError> = await withCheckedContinuation { continuation in
            queue.async {
                continuation.resume(
                    returning: Result { () throws(PostgresError) in try PostgresConnection.connect(uri: url.text) })
            }
        }
        switch outcome {
        case .success(let connection): return PostgresSession(queue: queue, connection: connection, url: url)
        case .failure(let error): throw url.redacted(error)
        }
    }

    /// Runs `body` with the connection on the session's queue and answers its value.
    ///
    /// A connection that broke (the server restarted, a proxy dropped it) is re-opened, and a
    /// call that failed because it broke runs once more on the new one: every call the store
    /// makes may run twice (reads; upserts; inserts that skip rows already there; a claim that
    /// renews), so a recorder rides out a database restart without losing its tick.
    @discardableResult
    func run<Value: Sendable>(
        _ body: @escaping @Sendable (PostgresConnection) throws(PostgresError) -> Value
    ) async throws(PostgresError) -> Value {
        let outcome: Result<Value, PostgresError> = await withCheckedContinuation { continuation in
            queue.async {
                continuation.resume(
                    returning: Result { () throws(PostgresError) in try self.reconnecting(body) })
            }
        }
        switch outcome {
        case .success(let value): return value
        case .failure(let error): throw url.redacted(error)
        }
    }
}

extension PostgresSession {
    /// `body` on the connection, re-opened first when it broke, and run again once when it
    /// broke during the call. Only on `queue`.
    private func reconnecting<Value>(_ body: (PostgresConnection) throws(PostgresError) -> Value)
        throws(PostgresError) -> Value
    {
        if connection.isBroken { try connection.reset() }
        do throws(PostgresError) {
            return try body(connection)
        } catch  where error.kind == .connection && connection.isBroken {
            try connection.reset()
            return try body(connection)
        }
    }
}

extension PostgresURL {
    /// `error` with the password removed from its message.
    func redacted(_ error: PostgresError) -> PostgresError {
        var error = error
        error.message = redacting(error.message)
        return error
    }
}
