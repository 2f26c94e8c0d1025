import AggTestKit
import Foundation
import Testing

@testable import AggJSON

/// The oracle of `JSONWriter`'s fast path (bytes written in place through a pointer): the same
/// calls through `PlainJSONWriter`, written on a `String` the obvious way, give the same bytes,
/// compact and pretty, over every recorded fixture document and random documents full of
/// escapes, terminal controls, decimals and integers.
@Suite("JSONWriter fast path oracle")
struct JSONWriterFastPathOracleTests {
    /// One call of the writer's API.
    enum Step {
        case beginObject, endObject, beginArray, endArray, null, newline
        case key(String)
        /// A member key as a literal: the fast path writes it in one block.
        case literalKey(Int)
        case bool(Bool)
        case number(String)
        case integer(Int64)
        case string(String)
        case decimal(Decimal)
        case unescaped(String)
        case value(JSONValue)
    }

    /// Literal keys and their text: ASCII (one block), one character (held as a scalar), and
    /// one that needs escaping (written as any string).
    static let literals: [(StaticString, String)] = [
        ("last", "last"), ("fetchedAt", "fetchedAt"), ("k", "k"), ("", ""), ("say \"hi\"", "say \"hi\""),
        ("가격", "가격"),
    ]

    /// `steps` replayed on `writer`: the same calls on the fast writer and on the plain one.
    static func replay<Writer: WriterUnderTest>(_ steps: [Step], on writer: inout Writer) {
        for step in steps {
            switch step {
            case .beginObject: writer.beginObject()
            case .endObject: writer.endObject()
            case .beginArray: writer.beginArray()
            case .endArray: writer.endArray()
            case .null: writer.null()
            case .newline: writer.newline()
            case .key(let key): writer.key(key)
            case .literalKey(let index): writer.literalKey(index)
            case .bool(let flag): writer.bool(flag)
            case .number(let text): writer.number(text)
            case .integer(let value): writer.integer(value)
            case .string(let text): writer.string(text)
            case .decimal(let value): writer.decimalString(value)
            case .unescaped(let text): writer.unescapedString { $0 += text.utf8 }
            case .value(let value): writer.value(value)
            }
        }
    }

    static func fast(_ steps: [Step], pretty: Bool) -> String {
        var writer = JSONWriter(pretty: pretty)
        replay(steps, on: &writer)
        // Both ways of reading the result.
        #expect(writer.bytes == Array(writer.text.utf8))
        return writer.text
    }

    static func plain(_ steps: [Step], pretty: Bool) -> String {
        var writer = PlainJSONWriter(pretty: pretty)
        replay(steps, on: &writer)
        return writer.text
    }

    static func expectAgreement(_ steps: [Step], pretty: Bool, sourceLocation: SourceLocation = #_sourceLocation) {
        let plain = plain(steps, pretty: pretty)
        let fast = fast(steps, pretty: pretty)
        #expect(Array(fast.utf8) == Array(plain.utf8), "\(plain)", sourceLocation: sourceLocation)
    }

    /// Each test runs compact and pretty.
    static let layouts = [false, true]

    @Test("writes exactly the plain text on known calls", arguments: layouts)
    func examples(pretty: Bool) throws {
        let steps: [Step] = [
            .beginObject, .literalKey(0), .decimal(try DecimalText.parse("80630000.50")), .literalKey(4),
            .string("say \"비\"\n\u{1B}\u{9B}\u{202E}"), .literalKey(5), .integer(.min), .key("n\u{2028}"),
            .beginArray, .integer(0), .integer(.max), .decimal(.nan), .decimal(0), .null, .bool(false), .endArray,
            .literalKey(1), .unescaped("2024-08-08T08:12:15.027Z"), .literalKey(3), .beginObject, .endObject,
            .endObject, .newline,
        ]
        Self.expectAgreement(steps, pretty: pretty)
        #expect(
            Self.fast(steps, pretty: false)
                == #"{"last":"80630000.5","say \"hi\"":"say \"비\"\n\u001b\u009b\u202e","가격":-9223372036854775808,"#
                + #""n\u2028":[0,9223372036854775807,"NaN","0",null,false],"fetchedAt":"2024-08-08T08:12:15.027Z","#
                + "\"\":{}}\n")
    }

    /// Every JSON document recorded from a venue, written back whole.
    @Test("agrees with the plain writer on every fixture document", arguments: layouts)
    func everyFixtureDocument(pretty: Bool) async throws {
        var checked = 0
        for (_, document) in try FixtureDocuments.all() {
            await Task.yield()
            Self.expectAgreement([.value(document)], pretty: pretty)
            checked += 1
        }
        // A walk that found no documents would prove nothing.
        #expect(checked > 100)
    }

    /// Pieces of strings: escapes, C0 and C1 controls, DEL, bidirectional controls, the line
    /// separator, their non-control neighbours that share a first byte (U+00A0, U+0600, U+2000),
    /// Hangul and an emoji.
    static let pieces = [
        "a", "BTC", "\"", "\\", "\n", "\r", "\t", "\u{0}", "\u{1F}", "\u{7F}", "\u{80}", "\u{9F}", "\u{A0}",
        "\u{E9}", "\u{600}", "\u{61C}", "\u{2000}", "\u{200E}", "\u{202E}", "\u{2066}", "\u{2028}", "\u{2029}",
        "\u{2030}", "비트", "😀", "/", " ",
    ]

    static func randomString(_ generator: inout SeededRandom) -> String {
        (0..<Int(generator.next() % 6)).map { _ in pieces[Int(generator.next() % UInt64(pieces.count))] }.joined()
    }

    static func randomDecimal(_ generator: inout SeededRandom) -> Decimal {
        let edges = DecimalTextFastPathOracleTests.edges
        if generator.next() % 4 == 0 { return edges[Int(generator.next() % UInt64(edges.count))] }
        let mantissa = Decimal(generator.next() >> (generator.next() % 64))
        return Decimal(
            sign: generator.next() % 2 == 0 ? .plus : .minus, exponent: Int(generator.next() % 40) - 30,
            significand: mantissa)
    }

    /// The steps of one random value, nested at most `depth` levels.
    static func randomValue(_ generator: inout SeededRandom, depth: Int, into steps: inout [Step]) {
        switch generator.next() % (depth > 0 ? 10 : 8) {
        case 0: steps.append(.null)
        case 1: steps.append(.bool(generator.next() % 2 == 0))
        case 2: steps.append(.integer(Int64(bitPattern: generator.next()) >> (generator.next() % 64)))
        case 3: steps.append(.string(randomString(&generator)))
        case 4, 5: steps.append(.decimal(randomDecimal(&generator)))
        case 6: steps.append(.number(String(generator.next() % 1000)))
        case 7: steps.append(.unescaped(String(generator.next())))
        case 8:
            steps.append(.beginArray)
            for _ in 0..<(generator.next() % 4) { randomValue(&generator, depth: depth - 1, into: &steps) }
            steps.append(.endArray)
        default:
            steps.append(.beginObject)
            for _ in 0..<(generator.next() % 4) {
                if generator.next() % 2 == 0 {
                    steps.append(.literalKey(Int(generator.next() % UInt64(literals.count))))
                } else {
                    steps.append(.key(randomString(&generator)))
                }
                randomValue(&generator, depth: depth - 1, into: &steps)
            }
            steps.append(.endObject)
        }
    }

    @Test("agrees with the plain writer on 3,000 random documents (fixed seed)", arguments: layouts)
    func randomDocuments(pretty: Bool) async {
        var generator = SeededRandom(seed: 0x0F_A57_0A7)
        for round in 0..<3_000 {
            if round % 200 == 0 { await Task.yield() }
            var steps: [Step] = []
            Self.randomValue(&generator, depth: 4, into: &steps)
            if generator.next() % 3 == 0 { steps.append(.newline) }
            Self.expectAgreement(steps, pretty: pretty)
        }
    }
}

/// The calls the oracle makes, on the fast writer and on the plain one alike.
protocol WriterUnderTest: JSONValueSink {
    mutating func newline()
    mutating func integer(_ value: Int64)
    mutating func decimalString(_ value: Decimal)
    mutating func unescapedString(_ body: (inout [UInt8]) -> Void)
    mutating func value(_ value: JSONValue)
    /// The key `JSONWriterFastPathOracleTests.literals[index]`: a literal for the fast writer.
    mutating func literalKey(_ index: Int)
}

extension JSONWriter: WriterUnderTest {
    mutating func literalKey(_ index: Int) { key(JSONWriterFastPathOracleTests.literals[index].0) }
}

extension PlainJSONWriter: WriterUnderTest {
    mutating func literalKey(_ index: Int) { key(JSONWriterFastPathOracleTests.literals[index].1) }
}
