/// The calls that write a JSON document piece by piece: what `JSONWriter` (agg's writer) and
/// `PlainJSONWriter` (its oracle) both take, so that a whole `JSONValue` is walked into either by
/// one `write(_:)`, and the oracle compares the writers rather than two copies of the walk.
protocol JSONValueSink {
    mutating func beginObject()
    mutating func endObject()
    mutating func beginArray()
    mutating func endArray()
    /// The next member's key; its value comes next.
    mutating func key(_ key: String)
    mutating func null()
    mutating func bool(_ flag: Bool)
    /// A number written as `text`, which is already a JSON number.
    mutating func number(_ text: String)
    mutating func string(_ text: String)
}

extension JSONValueSink {
    /// `value` whole, members in their stored order and numbers as their stored text.
    mutating func write(_ value: JSONValue) {
        switch value {
        case .null: null()
        case .bool(let flag): bool(flag)
        case .number(let text): number(text)
        case .string(let text): string(text)
        case .array(let elements):
            beginArray()
            for element in elements { write(element) }
            endArray()
        case .object(let object):
            beginObject()
            for member in object.members {
                key(member.key)
                write(member.value)
            }
            endObject()
        }
    }
}
