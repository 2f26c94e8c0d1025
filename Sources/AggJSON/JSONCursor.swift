import Foundation

/// A decoding failure that names where in the document it happened.
public struct JSONDecodingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The path of the value that failed, such as `$.data.BTC.closing_price`.
    public var path: String
    /// What was wrong, such as "expected a decimal, found an object".
    public var reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { "\(path): \(reason)" }
}

/// A value together with its path in the document, so that every accessor can report exactly
/// which field was missing or malformed.
///
/// Accessors are lenient where venues are inconsistent (a number may come as a JSON number or
/// as a string) and strict where a wrong guess would be silent (a price never comes from a
/// boolean).
public struct JSONCursor: Sendable {
    /// The value here; `nil` when the member does not exist.
    public let value: JSONValue?
    /// The path to this value.
    public let path: String

    /// A cursor at the root of `value`.
    public init(_ value: JSONValue, path: String = "$") {
        self.value = value
        self.path = path
    }

    init(value: JSONValue?, path: String) {
        self.value = value
        self.path = path
    }

    /// The member `key` of this object; a missing member or a non-object gives an absent cursor
    /// that fails when read.
    public subscript(key: String) -> JSONCursor {
        let childPath = path + "." + key
        guard case .object(let object)? = value else { return JSONCursor(value: nil, path: childPath) }
        return JSONCursor(value: object[key], path: childPath)
    }

    /// The element at `index` of this array.
    public subscript(index: Int) -> JSONCursor {
        let childPath = path + "[\(index)]"
        guard case .array(let elements)? = value, elements.indices.contains(index) else {
            return JSONCursor(value: nil, path: childPath)
        }
        return JSONCursor(value: elements[index], path: childPath)
    }

    /// Whether a value is present and not `null`.
    public var isPresent: Bool {
        switch value {
        case nil, .null?: false
        default: true
        }
    }

    public func failure(_ reason: String) -> JSONDecodingError {
        JSONDecodingError(path: path, reason: reason)
    }

    private func mismatch(_ expected: String) -> JSONDecodingError {
        failure("expected \(expected), found \(value?.kindDescription ?? "nothing")")
    }

    /// The elements of this array.
    public func elements() throws(JSONDecodingError) -> [JSONCursor] {
        guard case .array(let elements)? = value else { throw mismatch("an array") }
        return elements.enumerated().map {
            JSONCursor(value: $0.element, path: path + "[\($0.offset)]")
        }
    }

    /// The members of this object, in document order.
    public func members() throws(JSONDecodingError) -> [(key: String, value: JSONCursor)] {
        guard case .object(let object)? = value else { throw mismatch("an object") }
        return object.members.map {
            (key: $0.key, value: JSONCursor(value: $0.value, path: path + "." + $0.key))
        }
    }

    /// A string value.
    public func string() throws(JSONDecodingError) -> String {
        guard case .string(let text)? = value else { throw mismatch("a string") }
        return text
    }

    /// A string value, or `nil` when absent or `null`.
    public func optionalString() throws(JSONDecodingError) -> String? {
        isPresent ? try string() : nil
    }

    /// A string or a number, as text (some venues send error codes either way).
    public func text() throws(JSONDecodingError) -> String {
        switch value {
        case .string(let text)?, .number(let text)?: return text
        default: throw mismatch("a string or a number")
        }
    }

    /// A boolean value.
    public func bool() throws(JSONDecodingError) -> Bool {
        guard case .bool(let flag)? = value else { throw mismatch("a boolean") }
        return flag
    }

    /// An exact decimal from a JSON number or a numeric string.
    public func decimal() throws(JSONDecodingError) -> Decimal {
        switch value {
        case .number(let text)?, .string(let text)?:
            do {
                return try DecimalText.parse(text)
            } catch {
                throw failure(error.description)
            }
        default:
            throw mismatch("a decimal")
        }
    }

    /// An exact decimal, or `nil` when absent, `null` or an empty string.
    public func optionalDecimal() throws(JSONDecodingError) -> Decimal? {
        if case .string(let text)? = value, text.isEmpty { return nil }
        return isPresent ? try decimal() : nil
    }

    /// A whole number from a JSON number or a numeric string (`"1723104735027"`).
    public func int64() throws(JSONDecodingError) -> Int64 {
        switch value {
        case .number(let text)?, .string(let text)?:
            if let number = Int64(text) { return number }
            throw failure("'\(text.prefix(40))' is not a whole number in range")
        default:
            throw mismatch("a whole number")
        }
    }

    /// A whole number, or `nil` when absent or `null`.
    public func optionalInt64() throws(JSONDecodingError) -> Int64? {
        isPresent ? try int64() : nil
    }
}
