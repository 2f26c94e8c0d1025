import AggJSON
import AggTestKit
import Foundation
import Testing

/// The fuzz cases draw from the test kit's `SeededRandom` (SplitMix64), whose whole state is one
/// seed, so that every case can be reproduced from the seed printed with a failure.
extension SeededRandom {
    mutating func chance(_ percent: Int) -> Bool {
        Int.random(in: 0..<100, using: &self) < percent
    }

    mutating func pick<T>(_ choices: [T]) -> T {
        choices[Int.random(in: 0..<choices.count, using: &self)]
    }
}

/// Parses `bytes` and, when they are JSON, checks that what the writer makes of the value reads
/// back as the same value. Returns whether the bytes parsed.
@discardableResult
func checkParserContract(_ bytes: [UInt8], case label: @autoclosure () -> String) -> Bool {
    let value: JSONValue
    do throws(JSONSyntaxError) {
        value = try JSONParser.parse(bytes)
    } catch {
        if !(0...bytes.count).contains(error.offset) || error.reason.isEmpty {
            Issue.record("\(label()): error \(error) is outside the \(bytes.count) input bytes")
        }
        return false
    }
    for pretty in [false, true] {
        let written = value.serialized(pretty: pretty)
        do throws(JSONSyntaxError) {
            let reread = try JSONParser.parse(written)
            if reread != value {
                Issue.record("\(label()): \(written) reads back as \(reread), not \(value)")
            }
        } catch {
            Issue.record("\(label()): the writer produced invalid JSON \(written): \(error)")
        }
    }
    return true
}

@Suite("Fuzzing the parser and DecimalText", .timeLimit(.minutes(1)))
struct JSONFuzzTests {
    static let seeds: [UInt64] = [0x5EED_0001, 0x5EED_0002, 0x5EED_0003, 0x5EED_0004]

    /// Fragments that make random input look like JSON often enough to reach deep code paths.
    static let fragments: [[UInt8]] =
        ([
            "{", "}", "[", "]", ",", ":", "\"", "\\", "\\u", "d83d", "\\ude00", "00e9", "\\n", "0", "1",
            "9", "-",
            ".", "e", "E", "+", "true", "false", "null", " ", "\n", "\t", "\"a\"", "\"비\"", "é", "\u{1}",
            "\u{7F}",
        ] as [String]).map { Array($0.utf8) } + [[0xFF], [0xC3], [0x80], [0xED, 0xA0, 0x80], [0x00]]

    @Test("random bytes either parse or throw a syntax error", arguments: seeds)
    func randomBytes(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        var parsed = 0
        for index in 0..<2_000 {
            var bytes: [UInt8] = []
            if random.chance(30) {
                for _ in 0..<Int.random(in: 0...48, using: &random) {
                    bytes.append(UInt8.random(in: 0...255, using: &random))
                }
            } else {
                // Short runs of fragments are often valid JSON; long ones reach deeper states.
                let count = Int.random(in: 0...(random.chance(50) ? 3 : 24), using: &random)
                for _ in 0..<count { bytes += random.pick(Self.fragments) }
            }
            if checkParserContract(bytes, case: "seed \(seed) case \(index) bytes \(bytes)") {
                parsed += 1
            }
        }
        // The fragments are chosen so that some cases are valid JSON; if none are, the test
        // has stopped exercising the writer.
        #expect(parsed > 20)
    }

    static let corpus: [[UInt8]] =
        ([
            #"{"status":"0000","data":{"BTC":{"opening_price":"80630000.0000","closing_price":"80630000","fluctate_rate_24H":"-0.54"},"1INCH":{"closing_price":"512.3"},"date":"1723104735027"}}"#,
            #"[{"market":"KRW-BTC","korean_name":"비트코인","english_name":"Bitcoin","trade_price":80630000.0,"signed_change_rate":-0.0017,"timestamp":1723104735027}]"#,
            #"{"status":"0000","data":[[1723104000000,"80630000","80640000","80700000","80600000","1.5"],[1723104060000,"1","2","3","4","5"]]}"#,
            #"{"result":"success","time_last_update_unix":1724025751,"rates":{"USD":1,"KRW":1350.003043,"EUR":0.9}}"#,
            #"{"error":{"name":404,"message":"Code not found"}}"#,
            #"{"s":"\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00\ube44","t":[true,false,null,-0.0E+00,1e-7,{}],"u":[]}"#,
            #"[[[[[[[[[[1]]]]]]]]],{"a":{"b":{"c":{"d":[]}}}}]"#,
            "  \r\n\t{ \"a\" : [ 1 , 2 ] }  ",
        ] as [String]).map { Array($0.utf8) }

    static let interestingBytes: [UInt8] =
        Array("{}[],:\"\\u0123456789-+.eEtfn \n".utf8) + [0x00, 0x1F, 0x7F, 0x80, 0xC3, 0xED, 0xFF]

    /// One random change: the kinds of damage a truncated download or a buggy server does.
    static func mutate(_ bytes: inout [UInt8], using random: inout SeededRandom) {
        let position = Int.random(in: 0...bytes.count, using: &random)
        switch Int.random(in: 0..<8, using: &random) {
        case 0 where !bytes.isEmpty:
            bytes[min(position, bytes.count - 1)] ^= UInt8(1) << UInt8.random(in: 0...7, using: &random)
        case 1:
            bytes.insert(random.pick(interestingBytes), at: position)
        case 2:
            bytes.insert(UInt8.random(in: 0...255, using: &random), at: position)
        case 3 where !bytes.isEmpty:
            bytes.remove(at: min(position, bytes.count - 1))
        case 4:
            bytes.removeSubrange(position...)
        case 5:
            let brackets = bytes.indices.filter { "[]{}".utf8.contains(bytes[$0]) }
            if brackets.isEmpty {
                bytes.insert(random.pick(Array("[]{}".utf8)), at: position)
            } else {
                let index = random.pick(brackets)
                bytes.insert(
                    contentsOf: repeatElement(bytes[index], count: Int.random(in: 1...3, using: &random)),
                    at: index)
            }
        case 6 where !bytes.isEmpty:
            let start = Int.random(in: 0..<bytes.count, using: &random)
            let end = Int.random(in: start...min(bytes.count, start + 16), using: &random)
            bytes.insert(contentsOf: Array(bytes[start..<end]), at: position)
        default:
            if !bytes.isEmpty { bytes[min(position, bytes.count - 1)] = random.pick(interestingBytes) }
        }
    }

    @Test("mutated documents either parse or throw a syntax error", arguments: seeds)
    func mutatedDocuments(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        var parsed = 0
        for index in 0..<1_500 {
            var bytes = random.pick(Self.corpus)
            for _ in 0..<Int.random(in: 1...4, using: &random) { Self.mutate(&bytes, using: &random) }
            if checkParserContract(bytes, case: "seed \(seed) case \(index) bytes \(bytes)") {
                parsed += 1
            }
        }
        #expect(parsed > 0)
    }

    /// A random number in JSON's grammar.
    static func randomNumber(using random: inout SeededRandom) -> String {
        var text = random.chance(30) ? "-" : ""
        text += random.chance(20) ? "0" : String(Int.random(in: 1...999_999_999, using: &random))
        if random.chance(50) {
            text +=
                "." + String(repeating: "0", count: Int.random(in: 0...3, using: &random))
                + String(Int.random(in: 0...99_999, using: &random))
        }
        if random.chance(25) {
            text +=
                random.pick(["e", "E"]) + random.pick(["", "+", "-"])
                + String(Int.random(in: 0...300, using: &random))
        }
        return text
    }

    /// A random string mixing ASCII, control characters, Korean, accents and astral characters.
    static func randomString(using random: inout SeededRandom) -> String {
        var scalars = String.UnicodeScalarView()
        let ranges: [ClosedRange<UInt32>] = [
            0x00...0x1F, 0x20...0x7F, 0x80...0x7FF, 0xAC00...0xD7A3, 0xE000...0xFFFF,
            0x1_0000...0x10_FFFF,
        ]
        for _ in 0..<Int.random(in: 0...12, using: &random) {
            let range = random.pick(ranges)
            if let scalar = Unicode.Scalar(UInt32.random(in: range, using: &random)) {
                scalars.append(scalar)
            }
        }
        return String(scalars)
    }

    static func randomValue(depth: Int, using random: inout SeededRandom) -> JSONValue {
        let kind = Int.random(in: 0..<(depth > 6 ? 5 : 7), using: &random)
        switch kind {
        case 0: return .null
        case 1: return .bool(random.chance(50))
        case 2: return .number(randomNumber(using: &random))
        case 3, 4: return .string(randomString(using: &random))
        case 5:
            return .array(
                (0..<Int.random(in: 0...5, using: &random)).map { _ in
                    randomValue(depth: depth + 1, using: &random)
                })
        default:
            let members = (0..<Int.random(in: 0...5, using: &random)).map { _ in
                JSONObject.Member(
                    key: randomString(using: &random), value: randomValue(depth: depth + 1, using: &random))
            }
            return .object(JSONObject(members))
        }
    }

    @Test("random values survive writing and reading", arguments: seeds)
    func randomValues(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        for index in 0..<300 {
            let value = Self.randomValue(depth: 0, using: &random)
            for pretty in [false, true] {
                let written = value.serialized(pretty: pretty)
                let reread = try JSONParser.parse(written)
                if reread != value {
                    Issue.record("seed \(seed) case \(index): \(written) reads back as \(reread)")
                }
                if !checkParserContract(Array(written.utf8), case: "seed \(seed) case \(index)") {
                    Issue.record("seed \(seed) case \(index): \(written) does not parse")
                }
            }
        }
    }

    /// Checks the DecimalText contract for one text: a value whose description parses back to
    /// itself, or a failure that carries the text.
    @discardableResult
    static func checkDecimalContract(_ text: String, case label: String) -> Decimal? {
        do throws(DecimalText.Failure) {
            let value = try DecimalText.parse(text)
            do throws(DecimalText.Failure) {
                let again = try DecimalText.parse(value.description)
                if again != value { Issue.record("\(label) '\(text)' → \(value) → \(again)") }
            } catch {
                Issue.record("\(label) '\(text)' → \(value), whose description does not parse: \(error)")
            }
            return value
        } catch {
            switch error {
            case .empty:
                if !text.allSatisfy({ $0 == " " }) { Issue.record("\(label) '\(text)' is not empty") }
            case .invalid(let payload), .outOfRange(let payload), .exponent(let payload), .leadingZeros(let payload):
                if payload != text { Issue.record("\(label) '\(text)' failed naming '\(payload)'") }
            }
            return nil
        }
    }

    @Test(
        "random number-like strings parse to values that round-trip, or fail cleanly", arguments: seeds)
    func randomDecimalText(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        let alphabet = Array("00123456789999+-.,eE ")
        var parsed = 0
        for index in 0..<5_000 {
            let length = Int.random(in: 0...24, using: &random)
            let text = String((0..<length).map { _ in random.pick(alphabet) })
            if Self.checkDecimalContract(text, case: "seed \(seed) case \(index)") != nil { parsed += 1 }
        }
        #expect(parsed > 100)
    }

    @Test("plain decimals agree with Decimal(string:)", arguments: seeds)
    func plainDecimals(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        for index in 0..<1_000 {
            let sign = random.pick(["", "-"])
            let integer = String(UInt64.random(in: 0...999_999_999_999_999, using: &random))
            let fraction =
                random.chance(70)
                ? "." + String(UInt64.random(in: 0...999_999_999_999, using: &random)) : ""
            let text = sign + integer + fraction
            let value = try #require(Self.checkDecimalContract(text, case: "seed \(seed) case \(index)"))
            #expect(value == Decimal(string: text), "\(text)")
        }
    }

    /// Digits of `count` with a non-zero first digit.
    static func digitGroup(_ count: Int, leading: Bool, using random: inout SeededRandom) -> String {
        String(
            (0..<count).map { position in
                Character(String(Int.random(in: (leading && position == 0 ? 1 : 0)...9, using: &random)))
            })
    }

    @Test("thousands separators are refused, however they are grouped", arguments: seeds)
    func thousandsSeparators(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        for index in 0..<1_000 {
            let groupCount = Int.random(in: 1...4, using: &random)
            var groups = [Self.digitGroup(Int.random(in: 1...3, using: &random), leading: true, using: &random)]
            for _ in 0..<groupCount {
                groups.append(Self.digitGroup(random.pick([3, 3, 3, 1, 2, 4]), leading: false, using: &random))
            }
            let sign = random.pick(["", "-"])
            let fraction =
                random.chance(50)
                ? "."
                    + Self.digitGroup(Int.random(in: 1...4, using: &random), leading: false, using: &random)
                : ""
            let text = sign + groups.joined(separator: ",") + fraction
            let label = "seed \(seed) case \(index)"
            #expect(throws: DecimalText.Failure.invalid(text), "\(label): \(text)") { try DecimalText.parse(text) }
            // The same digits without separators are a number.
            #expect(Self.checkDecimalContract(sign + groups.joined() + fraction, case: label) != nil)
        }
    }

    @Test("random texts parse exactly when they match -?digits(.digits)?([eE][+-]?digits)?", arguments: seeds)
    func grammarAgreement(seed: UInt64) {
        // The accepted grammar, written independently of the parser: a JSON number, except that
        // leading zeros are allowed ("007", as some venues pad).
        let grammar = /-?[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?/
        var random = SeededRandom(seed: seed)
        let alphabet = Array("01234567890123456789-+.eE, \t")
        var matched = 0
        for index in 0..<5_000 {
            let length = Int.random(in: 0...12, using: &random)
            let text = String((0..<length).map { _ in random.pick(alphabet) })
            let label = "seed \(seed) case \(index) '\(text)'"
            let inGrammar = text.wholeMatch(of: grammar) != nil
            let value = Self.checkDecimalContract(text, case: label)
            if inGrammar {
                matched += 1
                // In the grammar and in range: Foundation's lenient parser reads the same value
                // (where it reads one at all: it gives up on "0e757", which is 0).
                if let value, let reference = Decimal(string: text) { #expect(value == reference, "\(label)") }
            } else {
                #expect(value == nil, "\(label) is outside the grammar but parsed")
            }
        }
        #expect(matched > 100)
    }
}
