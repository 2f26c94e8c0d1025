import FoundationEssentials

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
    /// The path is kept in pieces and written out only when asked for (usually for an error):
    /// the folded ancestors, then up to two trailing steps held inline, so that reading the
    /// fields of a ticker allocates nothing.
    private let ancestors: JSONPathTrail
    private let parentStep: JSONPathStep?
    private let lastStep: JSONPathStep?

    /// A cursor at the root of `value`; `path` names the root in messages.
    public init(_ value: JSONValue, path: String = "$") {
        self.value = value
        self.ancestors = JSONPathTrail(root: path)
        self.parentStep = nil
        self.lastStep = nil
    }

    private init(value: JSONValue?, ancestors: JSONPathTrail, parentStep: JSONPathStep?, lastStep: JSONPathStep?) {
        self.value = value
        self.ancestors = ancestors
        self.parentStep = parentStep
        self.lastStep = lastStep
    }

    /// The path to this value, such as `$.data.BTC.closing_price`.
    public var path: String {
        var text = ancestors.path
        parentStep?.append(to: &text)
        lastStep?.append(to: &text)
        return text
    }

    /// A child one step below: inline when there is room, else after folding this cursor's own
    /// steps into the trail.
    private func child(_ value: JSONValue?, _ step: JSONPathStep) -> JSONCursor {
        if parentStep == nil {
            return JSONCursor(value: value, ancestors: ancestors, parentStep: lastStep, lastStep: step)
        }
        return JSONCursor(value: value, ancestors: folded(), parentStep: nil, lastStep: step)
    }

    /// This cursor's whole path as a trail, for children that share it.
    private func folded() -> JSONPathTrail {
        var trail = ancestors
        if let parentStep { trail = JSONPathTrail(parent: trail, step: parentStep) }
        if let lastStep { trail = JSONPathTrail(parent: trail, step: lastStep) }
        return trail
    }

    /// The member `key` of this object; a missing member or a non-object gives an absent cursor
    /// that fails when read.
    public subscript(key: String) -> JSONCursor {
        guard case .object(let object)? = value else { return child(nil, .key(key)) }
        return child(object[key], .key(key))
    }

    /// The element at `index` of this array.
    public subscript(index: Int) -> JSONCursor {
        guard case .array(let elements)? = value, elements.indices.contains(index) else {
            return child(nil, .index(index))
        }
        return child(elements[index], .index(index))
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
        let trail = folded()
        return elements.enumerated().map {
            JSONCursor(value: $0.element, ancestors: trail, parentStep: nil, lastStep: .index($0.offset))
        }
    }

    /// The members of this object, in document order.
    public func members() throws(JSONDecodingError) -> [(key: String, value: JSONCursor)] {
        guard case .object(let object)? = value else { throw mismatch("an object") }
        let trail = folded()
        return object.members.map {
            (key: $0.key, value: JSONCursor(value: $0.value, ancestors: trail, parentStep: nil, lastStep: .key($0.key)))
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

    /// An exact decimal from a JSON number (an exponent allowed) or a string in the plain
    /// grammar (no exponent, no leading zeros): for venues that document their decimals as
    /// strings. See `DecimalText` for the grammar.
    public func decimal() throws(JSONDecodingError) -> Decimal {
        switch value {
        case .number(let text)?:
            do {
                return try DecimalText.parse(text, form: .jsonNumber)
            } catch {
                throw failure(error.description)
            }
        case .string(let text)?:
            do {
                return try DecimalText.parse(text, form: .plain)
            } catch {
                throw failure(error.description)
            }
        default:
            throw mismatch("a decimal")
        }
    }

    /// An exact decimal from a JSON number only, for a field the venue documents as a number
    /// (Upbit's prices, FX rates): a string there (`"123"`) is refused, not guessed at.
    public func number() throws(JSONDecodingError) -> Decimal {
        guard case .number? = value else { throw mismatch("a number") }
        return try decimal()
    }

    /// The member `key` as a JSON number (`self[key].number()`).
    public func number(_ key: String) throws(JSONDecodingError) -> Decimal {
        try self[key].number()
    }

    /// The member `key` as a JSON number, or `nil` when absent or `null`.
    public func optionalNumber(_ key: String) throws(JSONDecodingError) -> Decimal? {
        let member = self[key]
        return member.isPresent ? try member.number() : nil
    }

    /// An exact decimal, or `nil` when absent, `null` or an empty string.
    public func optionalDecimal() throws(JSONDecodingError) -> Decimal? {
        if case .string(let text)? = value, text.isEmpty { return nil }
        return isPresent ? try decimal() : nil
    }

    /// The member `key` of this object as an exact decimal: `self[key].decimal()`, without making
    /// the member's cursor unless the member is missing or fails (the error is then the same).
    /// A market-wide answer reads nine of these per coin.
    public func decimal(_ key: String) throws(JSONDecodingError) -> Decimal {
        if case .object(let object)? = value, let member = object[key], let decimal = Self.decimal(member) {
            return decimal
        }
        return try self[key].decimal()
    }

    /// The member `key` as an exact decimal, or `nil` when absent, `null` or an empty string:
    /// `self[key].optionalDecimal()`, without making the member's cursor unless it fails.
    public func optionalDecimal(_ key: String) throws(JSONDecodingError) -> Decimal? {
        guard case .object(let object)? = value else { return try self[key].optionalDecimal() }
        switch object[key] {
        case nil, .null?: return nil
        case .string(let text)? where text.isEmpty: return nil
        case let member?:
            if let decimal = Self.decimal(member) { return decimal }
            return try self[key].optionalDecimal()
        }
    }

    /// The exact decimal a number or numeric string holds, or `nil` (the caller reports why).
    private static func decimal(_ value: JSONValue) -> Decimal? {
        switch value {
        case .number(let text): try? DecimalText.parse(text, form: .jsonNumber)
        case .string(let text): try? DecimalText.parse(text, form: .plain)
        default: nil
        }
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

/// One step of a path: a member name or an array index.
enum JSONPathStep: Sendable {
    case key(String)
    case index(Int)

    func append(to text: inout String) {
        switch self {
        case .key(let key): text += "." + key
        case .index(let index): text += "[\(index)]"
        }
    }
}

/// The folded part of a path: a root name and the steps below it, shared by reference among
/// sibling cursors.
final class JSONPathTrail: Sendable {
    let parent: JSONPathTrail?
    let step: JSONPathStep?
    let root: String

    init(root: String) {
        self.parent = nil
        self.step = nil
        self.root = root
    }

    init(parent: JSONPathTrail, step: JSONPathStep) {
        self.parent = parent
        self.step = step
        self.root = parent.root
    }

    var path: String {
        var steps: [JSONPathStep] = []
        var node: JSONPathTrail? = self
        while let current = node, let step = current.step {
            steps.append(step)
            node = current.parent
        }
        var text = root
        for step in steps.reversed() { step.append(to: &text) }
        return text
    }
}
