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
    /// Where the value lies: in a `JSONValue` tree, or at a node of a `JSONTape` (the fast path
    /// of `init(parsing:)`, read lazily; `-1` when the member does not exist).
    private enum Storage: Sendable {
        case tree(JSONValue?)
        case tape(JSONTape, Int)
    }

    private let storage: Storage

    /// The value here; `nil` when the member does not exist. A cursor made by `init(parsing:)`
    /// builds it on demand (with its subtree): the accessors below read the bytes instead.
    public var value: JSONValue? {
        switch storage {
        case .tree(let value): value
        case .tape(let tape, let index):
            // Spelled out: a bare `nil` here could be `JSONValue`'s nil literal, `.null`.
            index < 0 ? JSONValue?.none : .some(tape.value(index))
        }
    }
    /// The path is kept in pieces and written out only when asked for (usually for an error):
    /// the folded ancestors, then up to two trailing steps held inline, so that reading the
    /// fields of a ticker allocates nothing.
    private let ancestors: JSONPathTrail
    private let parentStep: JSONPathStep?
    private let lastStep: JSONPathStep?

    /// A cursor at the root of `value`; `path` names the root in messages.
    public init(_ value: JSONValue, path: String = "$") {
        self.storage = .tree(value)
        self.ancestors = JSONPathTrail(root: path)
        self.parentStep = nil
        self.lastStep = nil
    }

    /// A cursor at the root of the JSON document `bytes`, which is checked whole (as
    /// `JSONParser.parse` checks it) but read lazily: no `JSONValue` tree is built, members are
    /// found by their names' bytes and decimals read from their tokens' bytes, each value when
    /// asked for. Every accessor answers as it does on `JSONCursor(JSONParser.parse(bytes))`
    /// (`JSONTapeOracleTests`); it is the faster way to read a few fields of a document (a
    /// stream's messages).
    ///
    /// - Throws: the `JSONSyntaxError` `JSONParser.parse` throws for the same bytes.
    public init(parsing bytes: [UInt8], path: String = "$") throws(JSONSyntaxError) {
        self.storage = .tape(try JSONTape.parse(bytes), 0)
        self.ancestors = JSONPathTrail(root: path)
        self.parentStep = nil
        self.lastStep = nil
    }

    private init(storage: Storage, ancestors: JSONPathTrail, parentStep: JSONPathStep?, lastStep: JSONPathStep?) {
        self.storage = storage
        self.ancestors = ancestors
        self.parentStep = parentStep
        self.lastStep = lastStep
    }

    private init(value: JSONValue?, ancestors: JSONPathTrail, parentStep: JSONPathStep?, lastStep: JSONPathStep?) {
        self.init(storage: .tree(value), ancestors: ancestors, parentStep: parentStep, lastStep: lastStep)
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
        child(storage: .tree(value), step)
    }

    private func child(storage: Storage, _ step: JSONPathStep) -> JSONCursor {
        if parentStep == nil {
            return JSONCursor(storage: storage, ancestors: ancestors, parentStep: lastStep, lastStep: step)
        }
        return JSONCursor(storage: storage, ancestors: folded(), parentStep: nil, lastStep: step)
    }

    /// The tape node here, when this cursor reads a tape and the value exists.
    @inline(__always)
    private var tapeNode: (tape: JSONTape, index: Int)? {
        if case .tape(let tape, let index) = storage, index >= 0 { return (tape, index) }
        return nil
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
        switch storage {
        case .tree(let value):
            guard case .object(let object)? = value else { return child(nil, .key(key)) }
            return child(object[key], .key(key))
        case .tape(let tape, let index):
            guard index >= 0, tape.kind(index) == .object, let member = tape.member(index, key) else {
                return child(storage: .tape(tape, -1), .key(key))
            }
            return child(storage: .tape(tape, member), .key(key))
        }
    }

    /// The element at `index` of this array.
    public subscript(index: Int) -> JSONCursor {
        switch storage {
        case .tree(let value):
            guard case .array(let elements)? = value, elements.indices.contains(index) else {
                return child(nil, .index(index))
            }
            return child(elements[index], .index(index))
        case .tape(let tape, let node):
            guard node >= 0, tape.kind(node) == .array, index >= 0, index < Int(tape.nodes[node].start) else {
                return child(storage: .tape(tape, -1), .index(index))
            }
            var element = node + 1
            for _ in 0..<index { element = tape.next(element) }
            return child(storage: .tape(tape, element), .index(index))
        }
    }

    /// Whether a value is present and not `null`.
    public var isPresent: Bool {
        switch storage {
        case .tree(let value):
            switch value {
            case nil, .null?: false
            default: true
            }
        case .tape(let tape, let index): index >= 0 && tape.kind(index) != .null
        }
    }

    /// Whether a value is here, `null` included (a member that exists).
    public var exists: Bool {
        switch storage {
        case .tree(let value): value != nil
        case .tape(_, let index): index >= 0
        }
    }

    /// Whether the value here is an object.
    public var isObject: Bool {
        switch storage {
        case .tree(let value):
            if case .object? = value { true } else { false }
        case .tape(let tape, let index): index >= 0 && tape.kind(index) == .object
        }
    }

    /// A short name for the kind of value here ("an object", "a string"), or "nothing" when no
    /// value is here.
    public var kindDescription: String {
        switch storage {
        case .tree(let value): value?.kindDescription ?? "nothing"
        case .tape(let tape, let index): index < 0 ? "nothing" : tape.kindDescription(index)
        }
    }

    public func failure(_ reason: String) -> JSONDecodingError {
        JSONDecodingError(path: path, reason: reason)
    }

    private func mismatch(_ expected: String) -> JSONDecodingError {
        failure("expected \(expected), found \(kindDescription)")
    }

    /// The elements of this array.
    public func elements() throws(JSONDecodingError) -> [JSONCursor] {
        if let (tape, index) = tapeNode, tape.kind(index) == .array {
            let trail = folded()
            var cursors: [JSONCursor] = []
            cursors.reserveCapacity(Int(tape.nodes[index].start))
            var element = index + 1
            while element < Int(tape.nodes[index].end) {
                cursors.append(
                    JSONCursor(
                        storage: .tape(tape, element), ancestors: trail, parentStep: nil,
                        lastStep: .index(cursors.count)))
                element = tape.next(element)
            }
            return cursors
        }
        guard case .tree(.array(let elements)?) = storage else { throw mismatch("an array") }
        let trail = folded()
        return elements.enumerated().map {
            JSONCursor(value: $0.element, ancestors: trail, parentStep: nil, lastStep: .index($0.offset))
        }
    }

    /// The members of this object, in document order.
    public func members() throws(JSONDecodingError) -> [(key: String, value: JSONCursor)] {
        if let (tape, index) = tapeNode, tape.kind(index) == .object {
            let trail = folded()
            var members: [(key: String, value: JSONCursor)] = []
            members.reserveCapacity(Int(tape.nodes[index].start) / 2)
            var key = index + 1
            while key < Int(tape.nodes[index].end) {
                let name = tape.text(key)
                members.append(
                    (
                        key: name,
                        value: JSONCursor(
                            storage: .tape(tape, key + 1), ancestors: trail, parentStep: nil, lastStep: .key(name))
                    ))
                key = tape.next(key + 1)
            }
            return members
        }
        guard case .tree(.object(let object)?) = storage else { throw mismatch("an object") }
        let trail = folded()
        return object.members.map {
            (key: $0.key, value: JSONCursor(value: $0.value, ancestors: trail, parentStep: nil, lastStep: .key($0.key)))
        }
    }

    /// A string value.
    public func string() throws(JSONDecodingError) -> String {
        if let (tape, index) = tapeNode, tape.kind(index) == .string { return tape.text(index) }
        guard case .tree(.string(let text)?) = storage else { throw mismatch("a string") }
        return text
    }

    /// A string value, or `nil` when absent or `null`.
    public func optionalString() throws(JSONDecodingError) -> String? {
        isPresent ? try string() : nil
    }

    /// A string or a number, as text (some venues send error codes either way).
    public func text() throws(JSONDecodingError) -> String {
        if let (tape, index) = tapeNode, tape.kind(index) == .string || tape.kind(index) == .number {
            return tape.text(index)
        }
        switch storage {
        case .tree(.string(let text)?), .tree(.number(let text)?): return text
        default: throw mismatch("a string or a number")
        }
    }

    /// A boolean value.
    public func bool() throws(JSONDecodingError) -> Bool {
        if let (tape, index) = tapeNode, tape.kind(index) == .bool { return tape.nodes[index].flag }
        guard case .tree(.bool(let flag)?) = storage else { throw mismatch("a boolean") }
        return flag
    }

    /// An exact decimal from a JSON number (an exponent allowed) or a string in the plain
    /// grammar (no exponent, no leading zeros): for venues that document their decimals as
    /// strings. See `DecimalText` for the grammar.
    public func decimal() throws(JSONDecodingError) -> Decimal {
        if let (tape, index) = tapeNode {
            switch Self.decimal(tape, index) {
            case .success(let decimal)?: return decimal
            case .failure(let error)?: throw failure(error.description)
            case nil: throw mismatch("a decimal")
            }
        }
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
        if let (tape, index) = tapeNode, tape.kind(index) == .number { return try decimal() }
        guard case .tree(.number?) = storage else { throw mismatch("a number") }
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
        if let (tape, index) = tapeNode, tape.isEmptyString(index) { return nil }
        if case .tree(.string(let text)?) = storage, text.isEmpty { return nil }
        return isPresent ? try decimal() : nil
    }

    /// The member `key` of this object as an exact decimal: `self[key].decimal()`, without making
    /// the member's cursor unless the member is missing or fails (the error is then the same).
    /// A market-wide answer reads nine of these per coin.
    public func decimal(_ key: String) throws(JSONDecodingError) -> Decimal {
        if let (tape, index) = tapeNode {
            if tape.kind(index) == .object, let member = tape.member(index, key),
                case .success(let decimal)? = Self.decimal(tape, member)
            {
                return decimal
            }
            return try self[key].decimal()
        }
        if case .tree(.object(let object)?) = storage, let member = object[key], let decimal = Self.decimal(member) {
            return decimal
        }
        return try self[key].decimal()
    }

    /// The member `key` as an exact decimal, or `nil` when absent, `null` or an empty string:
    /// `self[key].optionalDecimal()`, without making the member's cursor unless it fails.
    public func optionalDecimal(_ key: String) throws(JSONDecodingError) -> Decimal? {
        if let (tape, index) = tapeNode {
            guard tape.kind(index) == .object, let member = tape.member(index, key) else {
                return try self[key].optionalDecimal()
            }
            if tape.kind(member) == .null || tape.isEmptyString(member) { return nil }
            if case .success(let decimal)? = Self.decimal(tape, member) { return decimal }
            return try self[key].optionalDecimal()
        }
        guard case .tree(.object(let object)?) = storage else { return try self[key].optionalDecimal() }
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

    /// The decimal of tape node `index`: a number token in the JSON number form, a string in
    /// the plain form (read from the bytes unless escaped), `nil` for any other kind.
    private static func decimal(_ tape: JSONTape, _ index: Int) -> Result<Decimal, DecimalText.Failure>? {
        let form: DecimalText.Form
        switch tape.kind(index) {
        case .number: form = .jsonNumber
        case .string: form = .plain
        default: return nil
        }
        do throws(DecimalText.Failure) {
            return .success(try tape.decimal(index, form: form))
        } catch {
            return .failure(error)
        }
    }

    /// A whole number from a JSON number or a numeric string (`"1723104735027"`).
    public func int64() throws(JSONDecodingError) -> Int64 {
        if let (tape, index) = tapeNode, tape.kind(index) == .number || tape.kind(index) == .string {
            let text = tape.text(index)
            if let number = Int64(text) { return number }
            throw failure("'\(text.prefix(40))' is not a whole number in range")
        }
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
