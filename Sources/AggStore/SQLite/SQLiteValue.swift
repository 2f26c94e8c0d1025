/// A value bound to a statement parameter: the three storage classes agg uses.
enum SQLiteValue: Sendable, Equatable {
    case text(String)
    case integer(Int64)
    case null

    /// `text` for a value, `null` for `nil`.
    static func text(_ value: String?) -> SQLiteValue {
        value.map { .text($0) } ?? .null
    }

    /// `integer` for a value, `null` for `nil`.
    static func integer(_ value: Int64?) -> SQLiteValue {
        value.map { .integer($0) } ?? .null
    }
}
