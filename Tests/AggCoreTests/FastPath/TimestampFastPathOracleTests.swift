import AggTestKit
import Testing

@testable import AggCore

/// The oracle of `Timestamp`'s ISO-8601 fast path: for every instant whose year has four digits
/// it writes exactly the plain version's text (with and without the fraction, as a `String` and
/// appended to bytes), and it declines every other instant, which the plain version writes.
@Suite("Timestamp fast path oracle")
struct TimestampFastPathOracleTests {
    static func expectAgreement(_ milliseconds: Int64, sourceLocation: SourceLocation = #_sourceLocation) {
        let timestamp = Timestamp(millisecondsSince1970: milliseconds)
        let fourDigitYear = (0...9999).contains(timestamp.civilParts(offsetSeconds: 0).year)
        for digits in [0, 3] {
            let plain = timestamp.plainISO8601(fractionDigits: digits)
            let fast = timestamp.iso8601FastPath(fractionDigits: digits)
            #expect((fast != nil) == fourDigitYear, "\(milliseconds)", sourceLocation: sourceLocation)
            if let fast { #expect(fast == plain, sourceLocation: sourceLocation) }
            #expect(timestamp.iso8601(fractionDigits: digits) == plain, sourceLocation: sourceLocation)
        }
        var bytes = Array("at ".utf8)
        #expect(timestamp.appendISO8601FastPath(to: &bytes) == fourDigitYear, sourceLocation: sourceLocation)
        if fourDigitYear {
            #expect(
                bytes == Array(("at " + timestamp.plainISO8601(fractionDigits: 3)).utf8), sourceLocation: sourceLocation
            )
        } else {
            #expect(bytes == Array("at ".utf8), sourceLocation: sourceLocation)
        }
    }

    /// The first and last millisecond of years 0 and 9999, of leap days, and of the ends of
    /// the range.
    static let edges: [Int64] = [
        0, 1, -1, 1_723_104_735_027, 951_782_400_000, 4_107_542_399_999, 4_107_542_400_000,
        253_402_300_799_999, 253_402_300_800_000, -62_167_219_200_000, -62_167_219_200_001, -62_135_596_800_000,
        .max, .min, .max - 1, .min + 1,
    ]

    @Test("agrees with the plain version on edge instants", arguments: edges)
    func edge(_ milliseconds: Int64) {
        Self.expectAgreement(milliseconds)
    }

    @Test("agrees with the plain version on 20,000 random instants (fixed seed)")
    func randomInstants() {
        var generator = SeededRandom(seed: 0x7135_7A4D)
        for round in 0..<20_000 {
            let raw = Int64(bitPattern: generator.next())
            // Half over the four-digit years, half over the whole range.
            let milliseconds =
                round % 2 == 0 ? -62_167_219_200_000 + Int64(raw.magnitude % 315_569_520_000_000) : raw
            Self.expectAgreement(milliseconds)
        }
    }
}
