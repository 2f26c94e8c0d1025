import AggCore

/// `--since`: how far back `agg history` reads, as a duration back from now (`24h`, `7d`,
/// `3600`) or a UTC date or time (`2026-12-01`, `2026-12-01T08:00Z`, `2026-12-01T08:00:30Z`).
package enum HistorySince: Sendable, Equatable, CustomStringConvertible {
    case ago(seconds: Int64)
    case from(Timestamp)

    /// As `--since` takes it: `24h`, `7d`, or the instant in milliseconds since 1970.
    package var description: String {
        switch self {
        case .ago(let seconds) where seconds % 3_600 == 0 && seconds <= 86_400: "\(seconds / 3_600)h"
        case .ago(let seconds): ValueParser<Double>.durationText(Double(seconds))
        case .from(let time): "\(time.millisecondsSince1970)"
        }
    }

    /// The instant it stands for at `now`.
    package func start(now: Timestamp) -> Timestamp {
        switch self {
        case .ago(let seconds): Timestamp(millisecondsSince1970: now.millisecondsSince1970 - seconds * 1000)
        case .from(let time): time
        }
    }

    package static let parser = ValueParser<HistorySince>(
        expected: "a duration such as 24h or 7d, or a UTC date such as 2026-12-01 or 2026-12-01T08:00Z"
    ) { text in
        if let seconds = DurationText.seconds(from: text), seconds > 0 { return .ago(seconds: seconds) }
        return date(text).map { .from($0) }
    }

    /// `YYYY-MM-DD`, optionally followed by `THH:MM` or `THH:MM:SS` and `Z`, in UTC.
    static func date(_ text: String) -> Timestamp? {
        let bytes = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= bytes.count, range.allSatisfy({ bytes[$0] >= 0x30 && bytes[$0] <= 0x39 })
            else { return nil }
            return range.reduce(0) { $0 * 10 + Int(bytes[$1] - 0x30) }
        }
        func byte(_ index: Int, is character: Unicode.Scalar) -> Bool {
            index < bytes.count && bytes[index] == UInt8(ascii: character)
        }
        guard bytes.count >= 10, let year = number(0..<4), byte(4, is: "-"), let month = number(5..<7),
            byte(7, is: "-"), let day = number(8..<10)
        else { return nil }
        var hour = 0
        var minute = 0
        var second = 0
        if bytes.count > 10 {
            guard byte(10, is: "T"), let h = number(11..<13), byte(13, is: ":"), let m = number(14..<16) else {
                return nil
            }
            hour = h
            minute = m
            var end = 16
            if byte(16, is: ":") {
                guard let s = number(17..<19) else { return nil }
                second = s
                end = 19
            }
            guard byte(end, is: "Z"), bytes.count == end + 1 else { return nil }
        }
        // A leap second is no start of a window; the rest is checked by `Timestamp(civil:)`.
        guard second < 60 else { return nil }
        return Timestamp(
            civil: CivilTime(year: year, month: month, day: day, hour: hour, minute: minute, second: second),
            offsetSeconds: 0)
    }
}
