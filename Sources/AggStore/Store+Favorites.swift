import AggCore

extension Store {
    /// Marks `codes` as favorites of `kind`; codes that already are stay as they are.
    ///
    /// Codes are stored as given: callers validate and normalize them (`AssetCode.validate`).
    public func addFavorites(_ codes: [String], kind: FavoriteKind) throws(AggError) {
        try withConnection("add \(kind.rawValue) favorites to") { connection throws(SQLiteError) in
            try connection.transaction { () throws(SQLiteError) in
                let insert = try connection.prepare(
                    "INSERT INTO favorite (kind, code) VALUES (?, ?) ON CONFLICT (kind, code) DO NOTHING"
                )
                for code in codes {
                    insert.reset()
                    try insert.bind([.text(kind.rawValue), .text(code)])
                    try insert.run()
                }
            }
        }
    }

    /// Removes `codes` from the favorites of `kind`.
    ///
    /// - Returns: the codes that were not favorites, in the order given, each once.
    @discardableResult
    public func removeFavorites(_ codes: [String], kind: FavoriteKind) throws(AggError) -> [String] {
        try withConnection("remove \(kind.rawValue) favorites from") { connection throws(SQLiteError) in
            try connection.transaction { () throws(SQLiteError) -> [String] in
                let delete = try connection.prepare("DELETE FROM favorite WHERE kind = ? AND code = ?")
                var removed: Set<String> = []
                var missing: [String] = []
                for code in codes where !removed.contains(code) && !missing.contains(code) {
                    delete.reset()
                    try delete.bind([.text(kind.rawValue), .text(code)])
                    if try delete.run() > 0 {
                        removed.insert(code)
                    } else {
                        missing.append(code)
                    }
                }
                return missing
            }
        }
    }

    /// The favorites of `kind`, sorted by code.
    public func favorites(kind: FavoriteKind) throws(AggError) -> [String] {
        try withConnection("read \(kind.rawValue) favorites from") { connection throws(SQLiteError) in
            try connection.query(
                "SELECT code FROM favorite WHERE kind = ? ORDER BY code", [.text(kind.rawValue)]
            ) { row throws(SQLiteError) in try row.requiredText(at: 0) }
        }
    }
}
