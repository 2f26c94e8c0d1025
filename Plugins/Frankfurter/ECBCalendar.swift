import AggCore

/// When the European Central Bank publishes its reference rates: on working days, at about
/// 16:00 Frankfurt time (CET in winter, CEST in summer).
///
/// Frankfurter's answers carry only the date of the rates. agg stores the nominal publication
/// time of that date as the table's `asOf` (16:00 Frankfurt time, as UTC: 15:00 in winter,
/// 14:00 in summer), and the same time on the next weekday as its `nextUpdate`. Both are
/// derived from the ECB's schedule, not sent by the provider; the ECB's holidays (TARGET
/// closing days) are not modelled, so on a holiday `nextUpdate` comes a day early and agg asks
/// once more than needed, never less.
enum ECBCalendar {
    /// The hour of publication, Frankfurt time.
    static let publicationHour = 16

    /// A calendar date.
    struct Day: Sendable, Equatable {
        var year: Int
        var month: Int
        var day: Int

        init(year: Int, month: Int, day: Int) {
            self.year = year
            self.month = month
            self.day = day
        }

        /// The date of `text`, which must be exactly `YYYY-MM-DD` and a real date.
        init?(_ text: String) {
            let bytes = Array(text.utf8)
            guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else {
                return nil
            }
            func number(_ range: Range<Int>) -> Int? {
                var value = 0
                for byte in bytes[range] {
                    guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                    value = value * 10 + Int(byte - UInt8(ascii: "0"))
                }
                return value
            }
            guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
                Timestamp(civil: CivilTime(year: year, month: month, day: day), offsetSeconds: 0) != nil
            else { return nil }
            self.init(year: year, month: month, day: day)
        }

        /// Days since 1970-01-01.
        var ordinal: Int64 {
            (Timestamp(civil: CivilTime(year: year, month: month, day: day), offsetSeconds: 0)?
                .millisecondsSince1970 ?? 0) / 86_400_000
        }

        /// 0 for Sunday to 6 for Saturday (1970-01-01 was a Thursday).
        var weekday: Int {
            Int(((ordinal + 4) % 7 + 7) % 7)
        }

        /// The date `count` days later.
        func adding(days count: Int64) -> Day {
            let time = Timestamp(millisecondsSince1970: (ordinal + count) * 86_400_000).civilParts(offsetSeconds: 0)
            return Day(year: time.year, month: time.month, day: time.day)
        }
    }

    /// Frankfurt's offset from UTC at 16:00 on `day`: +2 h from the last Sunday of March to
    /// the day before the last Sunday of October (the EU's summer time; the switches happen at
    /// 01:00 UTC, so 16:00 on either Sunday is already on the new time), +1 h otherwise.
    static func offsetSeconds(on day: Day) -> Int64 {
        let start = lastSunday(year: day.year, month: 3)
        let end = lastSunday(year: day.year, month: 10)
        let ordinal = day.ordinal
        return ordinal >= start.ordinal && ordinal < end.ordinal ? 7_200 : 3_600
    }

    /// 16:00 Frankfurt time on `day`, as an instant.
    static func publication(on day: Day) -> Timestamp {
        let civil = CivilTime(year: day.year, month: day.month, day: day.day, hour: publicationHour)
        return Timestamp(civil: civil, offsetSeconds: offsetSeconds(on: day))
            ?? Timestamp(millisecondsSince1970: day.ordinal * 86_400_000)
    }

    /// The publication time on the first weekday after `day`.
    static func nextPublication(after day: Day) -> Timestamp {
        var next = day.adding(days: 1)
        while next.weekday == 0 || next.weekday == 6 { next = next.adding(days: 1) }
        return publication(on: next)
    }

    /// The last Sunday of `month` in `year`; `month` is March or October, both 31 days long.
    static func lastSunday(year: Int, month: Int) -> Day {
        let last = Day(year: year, month: month, day: 31)
        return last.adding(days: -Int64(last.weekday))
    }
}
