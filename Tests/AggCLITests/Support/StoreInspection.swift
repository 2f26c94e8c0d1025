@testable import AggStore

extension Store {
    /// The single integer a query returns, read behind the public API.
    func integer(_ sql: String) throws -> Int64? {
        try withConnection("inspect") { connection throws(SQLiteError) in
            try connection.query(sql) { row in row.int64(at: 0) }.first ?? nil
        }
    }

    /// The first column of every row a query returns.
    func integers(_ sql: String) throws -> [Int64] {
        try withConnection("inspect") { connection throws(SQLiteError) in
            try connection.query(sql) { row in row.int64(at: 0) ?? 0 }
        }
    }
}
