import AggTestKit
import Foundation
import Testing

@testable import AggJSON

/// The oracle of `JSONObject.sameNameFastPath`, which decides on bytes where they suffice: it
/// must answer exactly what the plain version (`sameName`, `==` on the names) answers, and the
/// lookup must find exactly what `==` finds.
@Suite("JSONObject name fast path oracle")
struct JSONObjectFastPathOracleTests {
    private static func finds(_ name: String, in key: String) -> Bool {
        JSONObject([JSONObject.Member(key: key, value: .bool(true))])[name] != nil
    }

    @Test(
        "names equal as strings are found, whatever their bytes; others are not",
        arguments: [
            ("opening_price", "opening_price", true), ("opening_price", "closing_price", false),
            ("min_price", "max_price", false), ("units_traded", "units_traded_24H", false),
            ("units_traded_24H", "units_traded", false), ("", "", true), ("", "a", false),
            // The Kelvin sign is canonically K; é is e with a combining acute accent.
            ("\u{212A}", "K", true), ("K", "\u{212A}", true), ("\u{212A}m", "Km", true), ("\u{212A}m", "Kn", false),
            ("\u{E9}", "e\u{301}", true), ("caf\u{E9}", "cafe\u{301}", true), ("a", "a\u{301}", false),
            ("a\u{301}b", "a\u{301}c", false), ("\u{1E9B}\u{323}", "\u{17F}\u{323}\u{307}", true),
        ])
    func examples(_ key: String, _ name: String, _ found: Bool) {
        #expect(Self.finds(name, in: key) == found)
        #expect(JSONObject.sameNameFastPath(key, name) == found)
        #expect(JSONObject.sameName(key, name) == found)
    }

    @Test("agrees with == on every pair of short names over ASCII letters and combining marks")
    func agreesWithEquality() {
        let pieces = ["a", "b", "K", "\u{212A}", "e", "\u{E9}", "\u{301}", "\u{323}", "_"]
        // Every name of up to two pieces, and of three over the pieces where spellings meet.
        let meeting = ["K", "\u{212A}", "e", "\u{301}", "\u{323}"]
        var names: [String] = [""]
        for first in pieces {
            names.append(first)
            for second in pieces { names.append(first + second) }
        }
        for first in meeting {
            for second in meeting {
                for third in meeting { names.append(first + second + third) }
            }
        }
        var disagreements: [String] = []
        for key in names {
            for name in names
            where Self.finds(name, in: key) != (key == name)
                || JSONObject.sameNameFastPath(key, name) != JSONObject.sameName(key, name)
            {
                disagreements.append("\(key.unicodeScalars.map(\.value)) vs \(name.unicodeScalars.map(\.value))")
            }
        }
        #expect(disagreements.isEmpty)
        #expect(names.count == 216)
    }

    /// Every member name in the recorded fixtures: each against its neighbours in sorted order
    /// (which share the longest prefixes) and the first 300 against each other.
    @Test("agrees with the plain version on the member names of every fixture")
    func fixtureNames() throws {
        var names: Set<String> = []
        func collect(_ value: JSONValue) {
            switch value {
            case .array(let elements): elements.forEach(collect)
            case .object(let object):
                for member in object {
                    names.insert(member.key)
                    collect(member.value)
                }
            default: break
            }
        }
        for (_, document) in try FixtureDocuments.all() { collect(document) }
        let sorted = names.sorted()
        #expect(sorted.count > 300)
        var disagreements: [String] = []
        func check(_ a: String, _ b: String) {
            if JSONObject.sameNameFastPath(a, b) != JSONObject.sameName(a, b) { disagreements.append("\(a) vs \(b)") }
        }
        for (a, b) in zip(sorted, sorted.dropFirst()) {
            check(a, b)
            check(b, a)
            check(a, a)
        }
        let first = sorted.prefix(300)
        for a in first {
            for b in first { check(a, b) }
        }
        #expect(disagreements.isEmpty)
    }
}
