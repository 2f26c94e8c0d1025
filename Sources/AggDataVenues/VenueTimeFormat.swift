import AggCore
import AggJSON

/// How a venue writes the time of a ticker.
public enum VenueTimeFormat: Sendable, Equatable {
    /// Milliseconds since 1970, as a JSON number or a string (`1723104735027`).
    case epochMilliseconds
    /// Seconds since 1970 (`1723104735`).
    case epochSeconds
    /// ISO 8601 with a zone: `2024-08-08T08:12:15.027Z`, `2024-08-08T17:12:15+09:00`, up to 9
    /// fraction digits.
    case iso8601
    /// A wall-clock time without a zone, `2024-08-08 17:12:15`, at a fixed offset from UTC in
    /// seconds (KST is +32400).
    case local(offsetSeconds: Int64)

    /// The names a definition may give a local time's zone, with their offsets.
    public static let zones: [String: Int64] = ["UTC": 0, "KST": 32_400, "JST": 32_400, "SGT": 28_800, "HKT": 28_800]

    /// A zone name of `zones` or a fixed offset `+09:00` / `-05:30`, in seconds.
    public static func offset(zone: String) -> Int64? {
        if let known = zones[zone.uppercased()] { return known }
        let characters = Array(zone)
        guard characters.count == 6, characters[0] == "+" || characters[0] == "-", characters[3] == ":",
            [1, 2, 4, 5].allSatisfy({ characters[$0].isASCII && characters[$0].isNumber }),
            let hours = Int(String(characters[1...2])), let minutes = Int(String(characters[4...5])),
            hours <= 14, minutes <= 59
        else { return nil }
        let seconds = Int64(hours * 3600 + minutes * 60)
        return characters[0] == "-" ? -seconds : seconds
    }

    /// The instant at `cursor`, or a decoding error naming the answer's path.
    public func read(_ cursor: JSONCursor) throws(JSONDecodingError) -> Timestamp {
        switch self {
        case .epochMilliseconds:
            return Timestamp(millisecondsSince1970: try cursor.int64())
        case .epochSeconds:
            let seconds = try cursor.int64()
            let (milliseconds, overflow) = seconds.multipliedReportingOverflow(by: 1000)
            guard !overflow else { throw cursor.failure("\(seconds) seconds is out of range") }
            return Timestamp(millisecondsSince1970: milliseconds)
        case .iso8601:
            let text = try cursor.string()
            guard let time = WallClock.parse(text, defaultOffset: nil) else {
                throw cursor.failure("'\(text.prefix(40))' is not an ISO-8601 time with a zone")
            }
            return time
        case .local(let offset):
            let text = try cursor.string()
            // A time that names its own zone is not what the definition says the venue sends.
            guard WallClock.parse(text, defaultOffset: nil) == nil,
                let time = WallClock.parse(text, defaultOffset: offset)
            else {
                throw cursor.failure("'\(text.prefix(40))' is not a time like 2024-08-08 17:12:15")
            }
            return time
        }
    }
}

/// `YYYY-MM-DD(T| )HH:MM:SS[.fraction][Z|±HH:MM]`, strictly.
enum WallClock {
    /// The instant `text` names; a text without a zone takes `defaultOffset`, and is refused
    /// when that is `nil`.
    static func parse(_ text: String, defaultOffset: Int64?) -> Timestamp? {
        let bytes = Array(text.utf8)
        var index = 0
        func number(_ width: Int) -> Int? {
            guard index + width <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[index..<(index + width)] {
                guard byte >= 0x30, byte <= 0x39 else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            index += width
            return value
        }
        func expect(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }
        guard let year = number(4), expect(0x2D), let month = number(2), expect(0x2D), let day = number(2),
            expect(0x54) || expect(0x20), let hour = number(2), expect(0x3A), let minute = number(2),
            expect(0x3A), let second = number(2)
        else { return nil }
        var millisecond = 0
        if expect(0x2E) {
            var digits = 0
            while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
                if digits < 3 { millisecond = millisecond * 10 + Int(bytes[index] - 0x30) }
                digits += 1
                index += 1
            }
            guard (1...9).contains(digits) else { return nil }
            for _ in min(digits, 3)..<3 { millisecond *= 10 }
        }
        var offset: Int64
        if expect(0x5A) {
            offset = 0
        } else if index < bytes.count, bytes[index] == 0x2B || bytes[index] == 0x2D {
            let negative = bytes[index] == 0x2D
            index += 1
            guard let hours = number(2), expect(0x3A), let minutes = number(2), hours <= 23, minutes <= 59 else {
                return nil
            }
            offset = Int64(hours * 3600 + minutes * 60) * (negative ? -1 : 1)
        } else if let defaultOffset {
            offset = defaultOffset
        } else {
            return nil
        }
        guard index == bytes.count else { return nil }
        return Timestamp(
            civil: CivilTime(
                year: year, month: month, day: day, hour: hour, minute: minute, second: second,
                millisecond: millisecond),
            offsetSeconds: offset)
    }
}
