/// A parsed JSON document that keeps every number as the exact text the sender wrote.
///
/// Prices must never pass through `Double`, so numbers stay text until a caller asks for a
/// `Decimal` or an integer. Objects keep their members in document order, which also makes
/// `JSONValue` a faithful tree for writing output whose key order is part of the interface.
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    /// A JSON number, as the exact text that appeared in the document (`"80630000.0000"`).
    case number(String)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// A short name for the kind of value, used in decoding errors ("a string", "an object").
    public var kindDescription: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// The members of a JSON object in document order.
///
/// Lookups are linear: venue objects have a dozen keys, where a scan beats hashing, and the
/// large objects (Bithumb's ALL tickers) are iterated rather than searched.
public struct JSONObject: Sendable, Equatable, Sequence {
    /// One `"key": value` pair.
    public struct Member: Sendable, Equatable {
        public var key: String
        public var value: JSONValue

        public init(key: String, value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    public var members: [Member]

    public init(_ members: [Member] = []) {
        self.members = members
    }

    /// The value of the first member named `key`, or `nil` when there is none. Names compare
    /// as Swift strings do (canonical equivalence), as `==` would (`sameName`, the plain version
    /// of `sameNameFastPath` in FastPath/JSONObject+FastPath.swift).
    public subscript(key: String) -> JSONValue? {
        for index in members.indices where Self.sameNameFastPath(members[index].key, key) {
            return members[index].value
        }
        return nil
    }

    public var count: Int { members.count }

    public func makeIterator() -> IndexingIterator<[Member]> {
        members.makeIterator()
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByNilLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(nilLiteral: ()) { self = .null }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(JSONObject(elements.map { JSONObject.Member(key: $0.0, value: $0.1) }))
    }
}

/// A member name that occurs twice in one object, and where: `$.ticker.fields` and `last`.
public struct JSONDuplicateKey: Sendable, Equatable, CustomStringConvertible {
    /// The path of the object holding the name twice.
    public var objectPath: String
    public var key: String

    public init(objectPath: String, key: String) {
        self.objectPath = objectPath
        self.key = key
    }

    /// The path of the second occurrence (`$.ticker.fields.last`).
    public var path: String {
        var text = objectPath
        JSONPathStep.key(key).append(to: &text)
        return text
    }

    public var description: String { "\(path): the key '\(key.prefix(40))' is given twice" }
}

extension JSONValue {
    /// The first member name given twice in one object, depth first in document order, or `nil`.
    ///
    /// RFC 8259 leaves duplicate names to the reader (`JSONObject`'s lookups take the first).
    /// Files a person writes (the config file, venue files) are read strictly with this check,
    /// so that `"id":"a", ..., "id":"b"` cannot mean one thing to agg and another to its author.
    public func firstDuplicateKey(path: String = "$") -> JSONDuplicateKey? {
        switch self {
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                var below = path
                JSONPathStep.index(index).append(to: &below)
                if let found = element.firstDuplicateKey(path: below) { return found }
            }
            return nil
        case .object(let object):
            var seen: Set<String> = []
            for member in object.members where !seen.insert(member.key).inserted {
                return JSONDuplicateKey(objectPath: path, key: member.key)
            }
            for member in object.members {
                var below = path
                JSONPathStep.key(member.key).append(to: &below)
                if let found = member.value.firstDuplicateKey(path: below) { return found }
            }
            return nil
        case .null, .bool, .number, .string:
            return nil
        }
    }
}
