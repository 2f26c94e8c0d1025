import AggJSON

/// A recorded answer with one value replaced, added or removed: how a test breaks one entry of a
/// bulk answer (a market list, all tickers, an FX table) from the fixture's own text.
public enum JSONDamage {
    /// One step of the path to the damaged value.
    public enum Step: Sendable, Equatable {
        case key(String)
        case index(Int)
    }

    /// The recorded answer `Fixtures/<file>` with the value at `path` replaced by `value` (see
    /// `damaged(_:at:with:)`); `nil` path damage leaves it as recorded.
    public static func recorded(_ file: String, at path: [Step] = [], with value: JSONValue? = nil) throws -> String {
        let text = String(decoding: try Fixtures.bytes(file), as: UTF8.self)
        return path.isEmpty ? text : try damaged(text, at: path, with: value)
    }

    /// `body` (a JSON document) with the value at `path` replaced by `value`: added when the
    /// member is missing, removed when `value` is `nil`.
    public static func damaged(_ body: String, at path: [Step], with value: JSONValue?) throws -> String {
        replacing(try JSONParser.parse(Array(body.utf8)), at: path[...], with: value).serialized()
    }

    /// `document` with the value at `path` replaced by `value` (added when missing, removed when
    /// `value` is `nil`).
    public static func replacing(_ document: JSONValue, at path: ArraySlice<Step>, with value: JSONValue?)
        -> JSONValue
    {
        guard let step = path.first else { return value ?? .null }
        let rest = path.dropFirst()
        switch (step, document) {
        case (.key(let key), .object(var object)):
            if let index = object.members.firstIndex(where: { $0.key == key }) {
                if rest.isEmpty, value == nil {
                    object.members.remove(at: index)
                } else {
                    object.members[index].value = replacing(object.members[index].value, at: rest, with: value)
                }
            } else if let value {
                object.members.append(JSONObject.Member(key: key, value: replacing(.null, at: rest, with: value)))
            }
            return .object(object)
        case (.index(let index), .array(var elements)):
            elements[index] = replacing(elements[index], at: rest, with: value)
            return .array(elements)
        default:
            return document
        }
    }
}
