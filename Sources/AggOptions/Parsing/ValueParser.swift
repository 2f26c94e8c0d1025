import AggCore
import AggJSON
import FoundationEssentials

/// How the text of one option value becomes a typed value. Every number option of every command
/// uses one of the parsers below, so that the grammar is the same everywhere: plain ASCII
/// digits (never hex such as `0x10`, never `1e3`, `+5`, `inf` or `nan`), and durations written
/// `600`, `10s`, `5m`, `1h` or `3d` wherever seconds are taken.
package struct ValueParser<Value: Sendable>: Sendable {
    /// What is accepted, in words, completing "invalid --NAME 'TEXT': expected ...".
    package var expected: String
    /// The values a closed set allows (`table`, `json`, `csv`), matched in any case.
    var allowed: [String]?
    /// The value of `text`; `nil` when it is not one (the caller reports `expected`), or a
    /// usage error of its own.
    package var parse: @Sendable (String) throws(AggError) -> Value?

    package init(
        expected: String, allowed: [String]? = nil, parse: @escaping @Sendable (String) throws(AggError) -> Value?
    ) {
        self.expected = expected
        self.allowed = allowed
        self.parse = parse
    }
}

extension ValueParser {
    /// Why `text` is refused, in the same words whatever the source: `naming` is the flag
    /// (`--timeout`) or the environment variable; `nil` when the caller names the source (the
    /// config file and its JSON path). A secret's text is never repeated.
    func refusal(_ text: String, naming name: String? = nil, secret: Bool = false) -> String {
        let shown = secret ? "(the value is not shown)" : "'\(text)'"
        if let allowed {
            return "invalid value \(shown)\(name.map { " for \($0)" } ?? ""); expected one of: "
                + allowed.joined(separator: ", ")
        }
        return "invalid \(name ?? "value") \(shown): expected \(expected)"
    }

    /// One of the cases of `Value`, named in any case: `-f JSON` is `-f json`.
    package static func choice(_ type: Value.Type = Value.self) -> ValueParser
    where Value: RawRepresentable & CaseIterable, Value.RawValue == String {
        let names = Value.allCases.map(\.rawValue)
        return ValueParser(expected: "one of: " + names.joined(separator: ", "), allowed: names) { text in
            Value.allCases.first { $0.rawValue.lowercased() == text.lowercased() }
        }
    }
}

extension ValueParser where Value == Int {
    /// A whole number in `range`, plain decimal digits only.
    package static func wholeNumber(in range: ClosedRange<Int>, expected: String? = nil) -> ValueParser {
        let upper = range.upperBound == Int.max ? "or more" : "to \(range.upperBound)"
        let words =
            expected ?? "a whole number \(range.upperBound == Int.max ? "" : "from ")\(range.lowerBound) \(upper)"
        return ValueParser(expected: words) { text in
            NumberText.wholeNumber(text).flatMap { range.contains($0) ? $0 : nil }
        }
    }
}

extension ValueParser where Value == Double {
    /// Seconds, fractions allowed (`0.5`, `2`, `1.5s`, `2m`, `1h`, `3d`), within `range`; a lower
    /// bound of 0 is exclusive when `positive`.
    /// The range is added to `expected` (`seconds, such as 10 or 1m, from 1s to 1d`), so that a
    /// value of the right form but out of range (`0.5`) is told what is allowed.
    package static func seconds(in range: ClosedRange<Double>, positive: Bool = true, expected: String)
        -> ValueParser
    {
        let lower = positive && range.lowerBound == 0 ? "above 0s" : "from \(durationText(range.lowerBound))"
        return ValueParser(expected: "\(expected), \(lower) to \(durationText(range.upperBound))") { text in
            guard let seconds = DurationText.fractionalSeconds(from: text), range.contains(seconds),
                !positive || seconds > 0
            else { return nil }
            return seconds
        }
    }

    /// `seconds` in the duration grammar options take: `1d`, `2h`, `5m`, else seconds (`0.5s`).
    package static func durationText(_ seconds: Double) -> String {
        for (unit, name) in [(86_400.0, "d"), (3_600.0, "h"), (60.0, "m")]
        where seconds >= unit && seconds.truncatingRemainder(dividingBy: unit) == 0 {
            return "\(Int(seconds / unit))\(name)"
        }
        return RateText.format(seconds) + "s"
    }
}

extension ValueParser where Value == Int64 {
    /// Whole seconds (`600`, `30s`, `10m`, `1h`, `3d`), at least `minimum`, at most a year.
    package static func duration(minimum: Int64 = 0, expected: String) -> ValueParser {
        ValueParser(expected: expected) { text in
            DurationText.seconds(from: text).flatMap { $0 >= minimum ? $0 : nil }
        }
    }
}

extension ValueParser where Value == Decimal {
    /// A non-negative decimal typed by a person: digits with at most one point (`0.01`, `5`,
    /// `.5`, `5.`), exact.
    package static func amount(expected: String) -> ValueParser {
        ValueParser(expected: expected) { text in NumberText.amount(text) }
    }
}

extension ValueParser where Value == String {
    /// A coin or currency code (`BTC`, `krw`), upper-cased and checked as `AssetCode` does.
    package static var assetCode: ValueParser {
        ValueParser(expected: "a code such as BTC") { text throws(AggError) in try AssetCode.validate(text) }
    }

    /// A fiat currency code: three letters (`KRW`).
    package static var currency: ValueParser {
        ValueParser(expected: "a currency code such as KRW") { text throws(AggError) in
            try AssetCode.validateCurrency(text)
        }
    }

    /// A registered venue id as typed (lower-cased; the registry checks it when the command runs).
    package static var venueID: ValueParser {
        ValueParser(expected: "a venue id (see 'agg exchanges')") { text in
            let id = ASCIIText.trimmed(text).lowercased()
            return id.isEmpty ? nil : id
        }
    }
}

extension ValueParser where Value == [String] {
    /// Comma-separated items (`bithumb,upbit`), each trimmed and parsed by `item`; at least one,
    /// and no empty one (`bithumb,,upbit` and `bithumb,` are refused: a stray comma is more likely
    /// a lost item than nothing).
    package static func list(of item: ValueParser<String>, expected: String) -> ValueParser {
        ValueParser(expected: expected) { text throws(AggError) in
            var values: [String] = []
            for part in text.split(separator: ",", omittingEmptySubsequences: false) {
                let trimmed = ASCIIText.trimmed(String(part))
                guard !trimmed.isEmpty, let value = try item.parse(trimmed) else { return nil }
                values.append(value)
            }
            return values
        }
    }
}

/// Numbers as people type them on the command line.
package enum NumberText {
    /// Plain ASCII digits, at most 18 of them (so the value fits an `Int`).
    package static func wholeNumber(_ text: String) -> Int? {
        guard !text.isEmpty, text.utf8.count <= 18, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
            return nil
        }
        return Int(text)
    }

    /// Digits with at most one point, with a digit somewhere (`0.01`, `5`, `.5`, `5.`).
    package static func amount(_ text: String) -> Decimal? {
        let bytes = Array(text.utf8)
        let isDigit = { (byte: UInt8) in byte >= 0x30 && byte <= 0x39 }
        guard bytes.contains(where: isDigit), bytes.allSatisfy({ isDigit($0) || $0 == UInt8(ascii: ".") }),
            bytes.filter({ $0 == UInt8(ascii: ".") }).count <= 1
        else { return nil }
        // The venue-number grammar wants digits on both sides of the point; a person may type
        // ".5" or "5.".
        let padded = (text.hasPrefix(".") ? "0" : "") + text + (text.hasSuffix(".") ? "0" : "")
        return try? DecimalText.parse(padded)
    }
}
