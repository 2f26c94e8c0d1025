import AggJSON
import CSQLite
import FoundationEssentials

// The fast path of binding a row's parameters: texts and decimals written into one reused
// arena and bound in place (`SQLITE_STATIC`), instead of each copied by SQLite
// (`SQLITE_TRANSIENT`: a malloc, a copy and a free per value, a third of the quote cache's
// write). `runOncePlain` beside it is the plain version; its oracle test
// (`SQLiteBindingFastPathOracleTests`) stores the same rows both ways and requires the same
// values back.

extension SQLiteStatement {
    /// Binds UTF-8 text that SQLite reads in place instead of copying (`SQLITE_STATIC`): the
    /// bytes must stay as they are until the bindings are cleared. Only `runOnce` does this.
    ///
    /// Sound: the bytes are in a `SQLiteTextArena`, which `runOnce` neither clears nor frees
    /// until the statement has run and its bindings are cleared (its `defer`); the rebound
    /// pointer (UInt8 to CChar, same size and alignment) is used only inside the closure, and
    /// SQLite reads exactly `count` bytes.
    func bindInPlace(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int32) throws(SQLiteError) {
        let status = bytes.withMemoryRebound(to: CChar.self) { text in
            // A nil destructor is SQLITE_STATIC; an empty text still needs an address.
            text.baseAddress.map { sqlite3_bind_text(handle, index, $0, Int32(text.count), nil) }
                ?? sqlite3_bind_text(handle, index, "", 0, agg_sqlite_transient())
        }
        try check(status)
    }

    /// Binds parameters with `body`, texts copied into `arena` and read there by SQLite, runs
    /// the statement once and clears the bindings, so that nothing refers to the arena after
    /// this returns; answers how many rows it changed.
    ///
    /// A batch of rows costs no allocation per value this way: SQLite's own copy of every
    /// bound text (`SQLITE_TRANSIENT`) was a malloc, a copy and a free each.
    @discardableResult
    func runOnce(
        arena: SQLiteTextArena, _ body: (inout SQLiteParameters) throws(SQLiteError) -> Void
    ) throws(SQLiteError) -> Int {
        try runOnceBinding(arena: arena, body)
    }

    /// The plain version of `runOnce(arena:_:)`: the same bindings, every text copied by SQLite
    /// (`SQLITE_TRANSIENT`), as `bind(_:at:)` does.
    @discardableResult
    func runOncePlain(_ body: (inout SQLiteParameters) throws(SQLiteError) -> Void) throws(SQLiteError) -> Int {
        try runOnceBinding(arena: nil, body)
    }

    private func runOnceBinding(
        arena: SQLiteTextArena?, _ body: (inout SQLiteParameters) throws(SQLiteError) -> Void
    ) throws(SQLiteError) -> Int {
        // Every run ends by rewinding the statement and clearing its bindings (below), so it
        // starts clean.
        arena?.clear()
        defer {
            sqlite3_reset(handle)
            sqlite3_clear_bindings(handle)
        }
        var parameters = SQLiteParameters(statement: self, arena: arena)
        try body(&parameters)
        return try run()
    }
}

/// Room for the texts bound in one `runOnce`, reused from run to run.
///
/// Sound: it owns its storage (allocated in `init`, freed in `deinit`, never handed out beyond
/// the slices `take` answers), and `take` writes and answers only bytes between `used` and the
/// end of the storage.
final class SQLiteTextArena {
    private let storage: UnsafeMutableBufferPointer<UInt8>
    private var used = 0

    /// An arena of `capacity` bytes; a text that does not fit is copied by SQLite instead.
    init(capacity: Int = 4_096) {
        storage = .allocate(capacity: capacity)
    }

    deinit {
        storage.deallocate()
    }

    /// Forgets every text; only `runOnce` calls it, when no binding refers to them.
    func clear() {
        used = 0
    }

    /// Copies what `write` writes into the free room (it answers the length, or `nil` when it
    /// did not fit), and answers the bytes, or `nil` when they did not fit.
    func take(_ write: (UnsafeMutableBufferPointer<UInt8>) -> Int?) -> UnsafeBufferPointer<UInt8>? {
        let free = UnsafeMutableBufferPointer(rebasing: storage[used...])
        guard let count = write(free) else { return nil }
        defer { used += count }
        return UnsafeBufferPointer(rebasing: storage[used..<(used + count)])
    }
}

/// The parameters of one `runOnce`: texts and decimals go through its arena (or, in
/// `runOncePlain`, are copied by SQLite).
struct SQLiteParameters: ~Copyable {
    let statement: SQLiteStatement
    /// `nil` for the plain version: SQLite copies every text.
    let arena: SQLiteTextArena?

    /// Binds `text` to parameter `index` (from 1), or NULL for `nil`.
    mutating func bind(_ text: String?, at index: Int32) throws(SQLiteError) {
        guard var text else { return try statement.bind(nil as String?, at: index) }
        guard let arena else { return try statement.bind(text, at: index) }
        let bytes = text.withUTF8 { utf8 in
            arena.take { free in
                guard utf8.count <= free.count else { return nil }
                _ = free.initialize(fromContentsOf: utf8)
                return utf8.count
            }
        }
        guard let bytes else { return try statement.bind(text, at: index) }
        try statement.bindInPlace(bytes, at: index)
    }

    /// Binds an exact decimal as its plain text (`DecimalText.format`), which
    /// `DecimalText.parse` reads back unchanged, or NULL for `nil`.
    ///
    /// - Throws: for NaN, which has no decimal text and could not be read back.
    mutating func bind(decimal value: Decimal?, at index: Int32) throws(SQLiteError) {
        guard let value else { return try statement.bind(nil as String?, at: index) }
        guard !value.isNaN else { throw SQLiteError(invalidData: "NaN is not a number that can be stored") }
        guard let arena, let bytes = arena.take({ DecimalText.write(value, into: $0) }) else {
            return try statement.bind(DecimalText.format(value), at: index)
        }
        try statement.bindInPlace(bytes, at: index)
    }

    /// Binds `value` to parameter `index` (from 1), or NULL for `nil`.
    mutating func bind(_ value: Int64?, at index: Int32) throws(SQLiteError) {
        try statement.bind(value, at: index)
    }
}
