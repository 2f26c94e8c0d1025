import AggCore
import Testing

@Suite("Timestamp")
struct TimestampTests {
    static let iso8601: [(milliseconds: Int64, text: String)] = [
        (0, "1970-01-01T00:00:00.000Z"),
        (1, "1970-01-01T00:00:00.001Z"),
        (1_723_104_735_027, "2024-08-08T08:12:15.027Z"),
        (1_709_210_096_789, "2024-02-29T12:34:56.789Z"),
        (951_782_400_000, "2000-02-29T00:00:00.000Z"),
        (4_107_542_399_999, "2100-02-28T23:59:59.999Z"),
        (4_107_542_400_000, "2100-03-01T00:00:00.000Z"),
        (253_402_300_799_999, "9999-12-31T23:59:59.999Z"),
        (-1, "1969-12-31T23:59:59.999Z"),
        (-1_000, "1969-12-31T23:59:59.000Z"),
        (-86_400_000, "1969-12-31T00:00:00.000Z"),
        (-14_182_940_000, "1969-07-20T20:17:40.000Z"),
        (-2_208_988_800_000, "1900-01-01T00:00:00.000Z"),
        (-62_135_596_800_000, "0001-01-01T00:00:00.000Z"),
        (-62_135_596_800_001, "0000-12-31T23:59:59.999Z"),
        (-62_167_219_200_001, "-0001-12-31T23:59:59.999Z"),
        (.max, "292278994-08-17T07:12:55.807Z"),
        (.min, "-292275055-05-16T16:47:04.192Z"),
    ]

    @Test("formats ISO-8601 in UTC with milliseconds", arguments: iso8601)
    func formats(milliseconds: Int64, text: String) {
        let timestamp = Timestamp(millisecondsSince1970: milliseconds)
        #expect(timestamp.description == text)
        #expect(timestamp.iso8601(fractionDigits: 3) == text)
        // Without the fraction, the same instant truncated to the second.
        #expect(timestamp.iso8601Seconds == text.replacing(/\.\d{3}Z$/, with: "Z"))
        // Written straight into a byte buffer, after what it already holds.
        var bytes = Array("at ".utf8)
        timestamp.appendISO8601(to: &bytes)
        #expect(bytes == Array(("at " + text).utf8))
    }

    @Test("seconds and milliseconds agree")
    func seconds() {
        let timestamp = Timestamp(secondsSince1970: 1_724_025_751)
        #expect(timestamp == Timestamp(millisecondsSince1970: 1_724_025_751_000))
        #expect(timestamp.iso8601Seconds == "2024-08-19T00:02:31Z")
        #expect(Timestamp(secondsSince1970: -1).description == "1969-12-31T23:59:59.000Z")
        #expect(Timestamp(millisecondsSince1970: 1) < Timestamp(millisecondsSince1970: 2))
    }

    @Test(
        "seconds from outside: nil when they cannot be counted in milliseconds",
        arguments: [
            (Int64(1_724_025_751), Timestamp(millisecondsSince1970: 1_724_025_751_000)),
            (Int64.max / 1000, Timestamp(millisecondsSince1970: Int64.max / 1000 * 1000)),
            (Int64.max / 1000 + 1, nil), (Int64.max, nil), (Int64.min, nil), (Int64.min / 1000 - 1, nil),
        ] as [(Int64, Timestamp?)])
    func checkedSeconds(seconds: Int64, expected: Timestamp?) {
        #expect(Timestamp(checkedSecondsSince1970: seconds) == expected)
    }

    static let kst: Int64 = 9 * 3600

    static let kstWallClock: [(civil: CivilTime, utc: String)] = [
        (
            CivilTime(year: 2024, month: 8, day: 8, hour: 17, minute: 14, second: 33),
            "2024-08-08T08:14:33.000Z"
        ),
        (CivilTime(year: 2024, month: 8, day: 8, hour: 9), "2024-08-08T00:00:00.000Z"),
        (CivilTime(year: 2024, month: 8, day: 9, hour: 0, minute: 5), "2024-08-08T15:05:00.000Z"),
        (
            CivilTime(year: 2024, month: 8, day: 9, hour: 8, minute: 59, second: 59, millisecond: 999),
            "2024-08-08T23:59:59.999Z"
        ),
        (CivilTime(year: 2024, month: 1, day: 1), "2023-12-31T15:00:00.000Z"),
        (
            CivilTime(year: 2024, month: 3, day: 1, hour: 8, minute: 59, second: 59),
            "2024-02-29T23:59:59.000Z"
        ),
        (CivilTime(year: 2023, month: 3, day: 1, hour: 0, minute: 30), "2023-02-28T15:30:00.000Z"),
        (CivilTime(year: 1970, month: 1, day: 1, hour: 9), "1970-01-01T00:00:00.000Z"),
        (CivilTime(year: 1970, month: 1, day: 1), "1969-12-31T15:00:00.000Z"),
    ]

    @Test("KST wall-clock time converts to UTC and back", arguments: kstWallClock)
    func kstRoundTrip(civil: CivilTime, utc: String) throws {
        let timestamp = try #require(Timestamp(civil: civil, offsetSeconds: Self.kst))
        #expect(timestamp.description == utc)
        #expect(timestamp.civilParts(offsetSeconds: Self.kst) == civil)
    }

    /// UTC, KST, US Eastern standard time and India, in seconds.
    static let offsets: [Int64] = [0, 32_400, -18_000, 19_800]

    @Test("civil fields at an offset round-trip for instants across eras", arguments: offsets)
    func civilRoundTrip(offsetSeconds: Int64) throws {
        // About every 9 days 7 hours and 13 seconds, plus odd milliseconds, from 1600 to 2400.
        var milliseconds: Int64 = -11_676_096_000_000
        while milliseconds < 13_569_465_600_000 {
            let timestamp = Timestamp(millisecondsSince1970: milliseconds)
            let civil = timestamp.civilParts(offsetSeconds: offsetSeconds)
            guard Timestamp(civil: civil, offsetSeconds: offsetSeconds) == timestamp else {
                Issue.record("\(milliseconds) → \(civil) does not convert back")
                return
            }
            milliseconds += 803_213_017
        }
    }

    @Test(
        "instants at the ends of the Int64 range convert at any offset without overflow",
        arguments: offsets)
    func extremesAtOffsets(offsetSeconds: Int64) throws {
        for milliseconds in [Int64.min, .min + 1, .max - 1, .max] {
            let timestamp = Timestamp(millisecondsSince1970: milliseconds)
            let civil = timestamp.civilParts(offsetSeconds: offsetSeconds)
            #expect(abs(civil.year) > 292_000_000)
            #expect((0...23).contains(civil.hour) && (0...999).contains(civil.millisecond))
        }
        let latest = Timestamp(millisecondsSince1970: .max).civilParts(offsetSeconds: 9 * 3600)
        #expect(
            latest
                == CivilTime(
                    year: 292_278_994, month: 8, day: 17, hour: 16, minute: 12, second: 55, millisecond: 807))
    }

    static let invalidCivil: [CivilTime] = [
        CivilTime(year: 2024, month: 0, day: 1),
        CivilTime(year: 2024, month: 13, day: 1),
        CivilTime(year: 2024, month: -1, day: 1),
        CivilTime(year: 2024, month: 1, day: 0),
        CivilTime(year: 2024, month: 1, day: 32),
        CivilTime(year: 2024, month: 2, day: 30),
        CivilTime(year: 2023, month: 2, day: 29),
        CivilTime(year: 2100, month: 2, day: 29),
        CivilTime(year: 2024, month: 4, day: 31),
        CivilTime(year: 2024, month: 6, day: 31),
        CivilTime(year: 2024, month: 9, day: 31),
        CivilTime(year: 2024, month: 11, day: 31),
        CivilTime(year: 2024, month: 1, day: 1, hour: 24),
        CivilTime(year: 2024, month: 1, day: 1, hour: -1),
        CivilTime(year: 2024, month: 1, day: 1, minute: 60),
        CivilTime(year: 2024, month: 1, day: 1, second: 61),
        CivilTime(year: 2024, month: 1, day: 1, millisecond: 1000),
        CivilTime(year: 2024, month: 1, day: 1, millisecond: -1),
        CivilTime(year: .max, month: 1, day: 1),
        CivilTime(year: .min, month: 1, day: 1),
        CivilTime(year: 300_000_000, month: 1, day: 1),
    ]

    @Test("invalid civil fields give nil", arguments: invalidCivil)
    func invalidCivilFields(civil: CivilTime) {
        #expect(Timestamp(civil: civil, offsetSeconds: 0) == nil)
        #expect(Timestamp(civil: civil, offsetSeconds: Self.kst) == nil)
    }

    static let validCivil: [(civil: CivilTime, utc: String)] = [
        (CivilTime(year: 2024, month: 2, day: 29), "2024-02-29T00:00:00.000Z"),
        (CivilTime(year: 2000, month: 2, day: 29), "2000-02-29T00:00:00.000Z"),
        (
            CivilTime(year: 2024, month: 12, day: 31, hour: 23, minute: 59, second: 59, millisecond: 999),
            "2024-12-31T23:59:59.999Z"
        ),
        (CivilTime(year: 2024, month: 4, day: 30), "2024-04-30T00:00:00.000Z"),
        (CivilTime(year: 1969, month: 12, day: 31, hour: 23), "1969-12-31T23:00:00.000Z"),
        (
            CivilTime(year: -1, month: 12, day: 31, hour: 23, minute: 59, second: 59, millisecond: 999),
            "-0001-12-31T23:59:59.999Z"
        ),
        (CivilTime(year: 10_000, month: 1, day: 1), "10000-01-01T00:00:00.000Z"),
        // A leap second is accepted and lands on the next second.
        (
            CivilTime(year: 2016, month: 12, day: 31, hour: 23, minute: 59, second: 60),
            "2017-01-01T00:00:00.000Z"
        ),
    ]

    @Test("valid civil fields in UTC", arguments: validCivil)
    func validCivilFields(civil: CivilTime, utc: String) throws {
        let timestamp = try #require(Timestamp(civil: civil, offsetSeconds: 0))
        #expect(timestamp.description == utc)
    }
}
