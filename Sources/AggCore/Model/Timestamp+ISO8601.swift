extension Timestamp {
    /// The instant an ISO-8601 (RFC 3339) time names, exact to the millisecond:
    /// `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)` with a real date and time and up to nine
    /// fraction digits (Coinbase's `2025-11-29T22:59:59.912345678Z`, Kraken's microseconds).
    /// Digits past the millisecond are dropped, never rounded through a floating-point `Date`;
    /// `nil` for anything else.
    public init?(iso8601 text: String) {
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
        func expect(_ character: Character) -> Bool {
            guard index < bytes.count, let ascii = character.asciiValue, bytes[index] == ascii else {
                return false
            }
            index += 1
            return true
        }
        guard let year = number(4), expect("-"), let month = number(2), expect("-"), let day = number(2),
            expect("T") || expect(" "), let hour = number(2), expect(":"), let minute = number(2), expect(":"),
            let second = number(2)
        else { return nil }

        var millisecond = 0
        if expect(".") {
            var digits = 0
            while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
                if digits < 3 { millisecond = millisecond * 10 + Int(bytes[index] - 0x30) }
                digits += 1
                index += 1
            }
            guard (1...9).contains(digits) else { return nil }
            if digits < 3 {
                for _ in digits..<3 { millisecond *= 10 }
            }
        }

        var offsetSeconds: Int64 = 0
        if expect("Z") {
            offsetSeconds = 0
        } else if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
            let sign: Int64 = bytes[index] == UInt8(ascii: "-") ? -1 : 1
            index += 1
            guard let hours = number(2), expect(":"), let minutes = number(2), hours <= 23, minutes <= 59 else {
                return nil
            }
            offsetSeconds = sign * Int64(hours * 3600 + minutes * 60)
        } else {
            return nil
        }
        // The civil initializer refuses a day the month does not have, an hour of 24 and so on.
        guard index == bytes.count,
            let parsed = Timestamp(
                civil: CivilTime(
                    year: year, month: month, day: day, hour: hour, minute: minute, second: second,
                    millisecond: millisecond),
                offsetSeconds: offsetSeconds)
        else { return nil }
        self = parsed
    }
}
