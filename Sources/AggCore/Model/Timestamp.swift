/// An instant as whole milliseconds since 1970-01-01T00:00:00Z.
///
/// Venues send milliseconds (Bithumb, Upbit, Binance), seconds (ExchangeRate-API) or
/// nanosecond-precision text (Coinbase); keeping integers avoids the rounding that `Date`'s
/// floating point brings to the millisecond digits of the output.
public struct Timestamp: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let millisecondsSince1970: Int64

    public init(millisecondsSince1970: Int64) {
        self.millisecondsSince1970 = millisecondsSince1970
    }

    /// `secondsSince1970` in milliseconds; the value must fit (see the failable initializer
    /// for numbers from outside).
    public init(secondsSince1970: Int64) {
        self.millisecondsSince1970 = secondsSince1970 * 1000
    }

    /// `seconds` as an instant, or `nil` when it is too far from 1970 to count in milliseconds:
    /// for seconds that come from outside, which may be any integer.
    public init?(checkedSecondsSince1970 seconds: Int64) {
        let (milliseconds, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        guard !overflow else { return nil }
        self.millisecondsSince1970 = milliseconds
    }

    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        lhs.millisecondsSince1970 < rhs.millisecondsSince1970
    }

    /// ISO-8601 in UTC with milliseconds: `2024-08-08T08:12:15.027Z`.
    public var description: String { iso8601(fractionDigits: 3) }

    /// ISO-8601 in UTC with whole seconds: `2024-08-19T00:02:31Z`.
    public var iso8601Seconds: String { iso8601(fractionDigits: 0) }

    /// ISO-8601 in UTC, with 0 or 3 fraction digits. Years of four digits (every instant a
    /// venue sends) take the fast path, `iso8601FastPath` (FastPath/Timestamp+FastPath.swift);
    /// any other year, and the oracle test, the plain version `plainISO8601`.
    public func iso8601(fractionDigits: Int) -> String {
        iso8601FastPath(fractionDigits: fractionDigits) ?? plainISO8601(fractionDigits: fractionDigits)
    }

    /// Appends `description` (`2024-08-08T08:12:15.027Z`) as UTF-8 to `bytes`, without making a
    /// `String`.
    public func appendISO8601(to bytes: inout [UInt8]) {
        if !appendISO8601FastPath(to: &bytes) {
            bytes.append(contentsOf: plainISO8601(fractionDigits: 3).utf8)
        }
    }

    /// The plain version of `iso8601(fractionDigits:)`, for any year: the fields padded with
    /// zeros through string interpolation.
    func plainISO8601(fractionDigits: Int) -> String {
        let parts = civilParts(offsetSeconds: 0)
        var text =
            "\(pad(parts.year, 4))-\(pad(parts.month, 2))-\(pad(parts.day, 2))T"
            + "\(pad(parts.hour, 2)):\(pad(parts.minute, 2)):\(pad(parts.second, 2))"
        if fractionDigits > 0 { text += "." + pad(parts.millisecond, 3) }
        return text + "Z"
    }

    /// The calendar fields of this instant at a fixed offset from UTC.
    public func civilParts(offsetSeconds: Int64) -> CivilTime {
        // The offset is applied to the time of day, not to the instant, so that instants near
        // the ends of the Int64 range do not overflow.
        let (utcDays, utcMilliseconds) = floorDivide(millisecondsSince1970, 86_400_000)
        let (carry, dayMilliseconds) = floorDivide(utcMilliseconds + offsetSeconds * 1000, 86_400_000)
        let (year, month, day) = Timestamp.civilDate(fromDays: utcDays + carry)
        let millisecond = Int(dayMilliseconds % 1000)
        let seconds = Int(dayMilliseconds / 1000)
        return CivilTime(
            year: year, month: month, day: day,
            hour: seconds / 3600, minute: seconds / 60 % 60, second: seconds % 60,
            millisecond: millisecond
        )
    }

    /// The instant of a wall-clock time at a fixed offset from UTC (KST is +9 h); `nil` when a
    /// field is out of range, the day does not exist in that month, or the year is beyond what
    /// `millisecondsSince1970` can hold.
    public init?(civil: CivilTime, offsetSeconds: Int64) {
        guard Timestamp.representableYears.contains(civil.year), (1...12).contains(civil.month),
            (1...Timestamp.daysInMonth(year: civil.year, month: civil.month)).contains(civil.day),
            (0...23).contains(civil.hour), (0...59).contains(civil.minute), (0...60).contains(civil.second),
            (0...999).contains(civil.millisecond)
        else { return nil }
        let days = Timestamp.days(
            fromCivilYear: Int64(civil.year), month: Int64(civil.month), day: Int64(civil.day))
        let seconds =
            days * 86_400 + Int64(civil.hour * 3600 + civil.minute * 60 + civil.second) - offsetSeconds
        self.millisecondsSince1970 = seconds * 1000 + Int64(civil.millisecond)
    }

    /// The years all of whose instants fit in `millisecondsSince1970`, less one year at each end
    /// so that no offset from UTC can push an instant out of range.
    static let representableYears: ClosedRange<Int> = {
        let first = Timestamp(millisecondsSince1970: .min).civilParts(offsetSeconds: 0).year
        let last = Timestamp(millisecondsSince1970: .max).civilParts(offsetSeconds: 0).year
        return (first + 1)...(last - 1)
    }()

    /// The length of `month` (1 to 12) in the proleptic Gregorian calendar.
    static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    // Howard Hinnant's days_from_civil / civil_from_days, exact for the proleptic Gregorian calendar.
    static func days(fromCivilYear year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func civilDate(fromDays days: Int64) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthPrime = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthPrime + 2) / 5 + 1
        let month = monthPrime < 10 ? monthPrime + 3 : monthPrime - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (Int(year), Int(month), Int(day))
    }
}

/// Calendar fields of an instant at some offset from UTC.
public struct CivilTime: Hashable, Sendable {
    public var year, month, day, hour, minute, second, millisecond: Int

    public init(
        year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0,
        millisecond: Int = 0
    ) {
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
        self.millisecond = millisecond
    }
}

/// Division rounding towards negative infinity, with a remainder in `0..<divisor`; it cannot
/// overflow, even for `Int64.min`.
private func floorDivide(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
    let (quotient, remainder) = value.quotientAndRemainder(dividingBy: divisor)
    return remainder < 0 ? (quotient - 1, remainder + divisor) : (quotient, remainder)
}

/// `value` with at least `width` digits; a negative value gets its sign before the zeros
/// (ISO 8601 writes the year before year 0 as `-0001`).
private func pad(_ value: Int, _ width: Int) -> String {
    let digits = String(value.magnitude)
    let padded = digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    return value < 0 ? "-" + padded : padded
}
