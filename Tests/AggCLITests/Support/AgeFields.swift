import AggCore
import AggJSON
import Testing

/// The three members every quote's JSON ends with (`receivedAt`, `ageSeconds`, `stale`), for
/// end-to-end tests of the real binary, whose clock is the wall clock: they take the members out
/// before comparing the rest byte for byte, and check them against the time the run took.
enum AgeFields {
    static let keys: Set<String> = ["receivedAt", "ageSeconds", "stale"]

    /// `value` without the three members, in every object that has all of them.
    static func stripped(_ value: JSONValue) -> JSONValue {
        switch value {
        case .array(let elements): return .array(elements.map(stripped))
        case .object(let object):
            let members = object.members.map { JSONObject.Member(key: $0.key, value: stripped($0.value)) }
            guard keys.isSubset(of: Set(members.map(\.key))) else { return .object(JSONObject(members)) }
            return .object(JSONObject(members.filter { !keys.contains($0.key) }))
        default: return value
        }
    }

    /// `text` (JSON) without the three members, serialized again; `text` itself when it is not JSON.
    /// For comparing `agg serve`'s answers, whose quotes carry each venue's own arrival time,
    /// with a command run over the same fixtures at one time.
    static func stripped(text: String) -> String {
        guard let value = try? JSONParser.parse(text) else { return text }
        return stripped(value).serialized()
    }

    /// Checks `quote`'s three members, the last three of it, from a run between `before` and
    /// `after` (wall-clock times): `receivedAt` within the run, `ageSeconds` exactly three
    /// decimals and at least `receivedAt` − the venue's time, at most `after` − it. Answers `stale`.
    @discardableResult
    static func check(_ quote: JSONValue?, venueTime: Timestamp, before: Timestamp, after: Timestamp) throws -> Bool {
        guard case .object(let object) = quote else { throw AgeFieldsError.notAnObject }
        let members = object.members.suffix(3)
        #expect(members.map(\.key) == ["receivedAt", "ageSeconds", "stale"])
        let values = Array(members.map(\.value))
        guard values.count == 3, case .string(let receivedText) = values[0],
            let received = Timestamp(iso8601: receivedText), case .string(let ageText) = values[1],
            case .bool(let stale) = values[2]
        else { throw AgeFieldsError.malformed(object.members.suffix(3).map(\.key)) }
        #expect(received >= before && received <= after, "receivedAt \(receivedText) outside the run")
        let parts = ageText.split(separator: ".")
        #expect(parts.count == 2 && parts[1].count == 3, "ageSeconds \(ageText) has not three decimals")
        let milliseconds = (Int64(parts.first ?? "") ?? -1) * 1000 + (Int64(parts.last ?? "") ?? -1)
        #expect(milliseconds >= received.millisecondsSince1970 - venueTime.millisecondsSince1970)
        #expect(milliseconds <= after.millisecondsSince1970 - venueTime.millisecondsSince1970)
        return stale
    }
}

enum AgeFieldsError: Error {
    case notAnObject
    case malformed([String])
}
