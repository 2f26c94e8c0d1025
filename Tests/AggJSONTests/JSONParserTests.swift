import AggJSON
import Testing

/// A document the parser must accept, with the value it must produce.
struct AcceptedDocument: Sendable, CustomTestStringConvertible {
    let name: String
    let bytes: [UInt8]
    let expected: JSONValue

    init(_ name: String, _ text: String, _ expected: JSONValue) {
        self.name = name
        self.bytes = Array(text.utf8)
        self.expected = expected
    }

    var testDescription: String { name }
}

/// A document the parser must reject, with the byte offset it must report when that offset is
/// part of the specification.
struct RejectedDocument: Sendable, CustomTestStringConvertible {
    let name: String
    let bytes: [UInt8]
    let offset: Int?

    init(_ name: String, _ text: String, at offset: Int? = nil) {
        self.init(name, bytes: Array(text.utf8), at: offset)
    }

    init(_ name: String, bytes: [UInt8], at offset: Int? = nil) {
        self.name = name
        self.bytes = bytes
        self.offset = offset
    }

    var testDescription: String { name }
}

/// `depth` arrays nested inside each other, innermost empty.
func nestedArrays(_ depth: Int) -> String {
    String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
}

/// `depth` objects nested inside each other through the member `"a"`, innermost holding `1`.
func nestedObjects(_ depth: Int) -> String {
    String(repeating: #"{"a":"#, count: depth) + "1" + String(repeating: "}", count: depth)
}

@Suite("JSONParser")
struct JSONParserTests {
    static let accepted: [AcceptedDocument] = [
        // Every type at the top level.
        AcceptedDocument("null", "null", .null),
        AcceptedDocument("true", "true", .bool(true)),
        AcceptedDocument("false", "false", .bool(false)),
        AcceptedDocument("zero", "0", .number("0")),
        AcceptedDocument("negative zero", "-0", .number("-0")),
        AcceptedDocument("integer", "123", .number("123")),
        AcceptedDocument("negative fraction with exponent", "-1.5e+10", .number("-1.5e+10")),
        AcceptedDocument("empty string", #""""#, .string("")),
        AcceptedDocument("plain string", #""abc""#, .string("abc")),
        AcceptedDocument("empty array", "[]", .array([])),
        AcceptedDocument("empty object", "{}", .object(JSONObject())),

        // Numbers keep the exact text the sender wrote.
        AcceptedDocument("satoshi as a string", #""0.00000001""#, .string("0.00000001")),
        AcceptedDocument("satoshi as a number", "0.00000001", .number("0.00000001")),
        AcceptedDocument("upper-case exponent", "1E-7", .number("1E-7")),
        AcceptedDocument("trailing zeros", "80630000.0000", .number("80630000.0000")),
        AcceptedDocument("zero with signed exponent", "-0.0E+00", .number("-0.0E+00")),
        AcceptedDocument(
            "more digits than a Double holds", "109282011238.501260000000000001",
            .number("109282011238.501260000000000001")),

        // Escapes.
        AcceptedDocument(
            "every short escape", #""\"\\\/\b\f\n\r\t""#, .string("\"\\/\u{8}\u{C}\n\r\t")),
        AcceptedDocument("\\u00e9", #""caf\u00e9""#, .string("café")),
        AcceptedDocument("\\u00E9 in upper-case hex", #""caf\u00E9""#, .string("café")),
        AcceptedDocument("\\u0000", #""a\u0000b""#, .string("a\u{0}b")),
        AcceptedDocument("surrogate pair", #""\ud83d\ude00""#, .string("😀")),
        AcceptedDocument("surrogate pair in upper case", #""x\uD83D\uDE00y""#, .string("x😀y")),
        AcceptedDocument("Korean, raw UTF-8", #""비트코인""#, .string("비트코인")),
        AcceptedDocument("Korean, escaped", #""\ube44\ud2b8\ucf54\uc778""#, .string("비트코인")),
        AcceptedDocument("raw and escaped text mixed", #""가\n나\u0041""#, .string("가\n나A")),
        AcceptedDocument("raw emoji", #""😀""#, .string("😀")),
        AcceptedDocument("DEL is not a control character", "\"a\u{7F}b\"", .string("a\u{7F}b")),

        // Structure.
        AcceptedDocument(
            "array of every type", #"[1,"a",null,true,false,{},[]]"#,
            [.number("1"), "a", nil, true, false, .object(JSONObject()), []]),
        AcceptedDocument(
            "nested object", #"{"a":{"b":[1,{"c":null}]}}"#,
            ["a": ["b": [.number("1"), ["c": nil]]]]),
        AcceptedDocument(
            "members keep document order", #"{"b":1,"a":2}"#, ["b": .number("1"), "a": .number("2")]),
        AcceptedDocument(
            "duplicate members are both kept", #"{"a":1,"a":2}"#,
            .object(
                JSONObject([.init(key: "a", value: .number("1")), .init(key: "a", value: .number("2"))]))),
        AcceptedDocument(
            "white space everywhere", " \t\n\r[ 1 ,\n\t2 , { \"k\" :\r\n\"v\" } ]\r\n\t ",
            [.number("1"), .number("2"), ["k": "v"]]),
        AcceptedDocument(
            "Bithumb ticker envelope",
            #"{"status":"0000","data":{"closing_price":"80630000.0000","fluctate_rate_24H":"-0.54","date":"1723104735027"}}"#,
            [
                "status": "0000",
                "data": [
                    "closing_price": "80630000.0000", "fluctate_rate_24H": "-0.54", "date": "1723104735027",
                ],
            ]),
        AcceptedDocument(
            "Upbit market list",
            #"[{"market":"KRW-BTC","korean_name":"비트코인","english_name":"Bitcoin","trade_price":80630000.0}]"#,
            [
                [
                    "market": "KRW-BTC", "korean_name": "비트코인", "english_name": "Bitcoin",
                    "trade_price": .number("80630000.0"),
                ]
            ]),
        AcceptedDocument("Korean member name", #"{"비트코인":1}"#, ["비트코인": .number("1")]),
    ]

    @Test("accepts", arguments: accepted)
    func accepts(_ document: AcceptedDocument) throws {
        #expect(try JSONParser.parse(document.bytes) == document.expected)
    }

    static let rejected: [RejectedDocument] = [
        RejectedDocument("empty input", "", at: 0),
        RejectedDocument("only white space", " \n\t ", at: 4),
        RejectedDocument("NUL byte", bytes: [0x00], at: 0),
        RejectedDocument("byte order mark", bytes: [0xEF, 0xBB, 0xBF, 0x31], at: 0),
        RejectedDocument("vertical tab is not white space", "\u{0B}1", at: 0),
        RejectedDocument("no-break space is not white space", "\u{A0}1", at: 0),

        // Trailing garbage.
        RejectedDocument("two values", "{} {}", at: 3),
        RejectedDocument("garbage after an array", "[1]x", at: 3),
        RejectedDocument("garbage after a literal", "truex", at: 4),
        RejectedDocument("hex number", "0x10", at: 1),
        RejectedDocument("comment", "1 // one", at: 2),

        // Literals.
        RejectedDocument("truncated true", "tru", at: 0),
        RejectedDocument("misspelt null", "nulL", at: 0),
        RejectedDocument("capitalised True", "True", at: 0),
        RejectedDocument("NaN", "NaN", at: 0),
        RejectedDocument("Infinity", "Infinity", at: 0),
        RejectedDocument("-Infinity", "-Infinity", at: 1),
        RejectedDocument("single-quoted string", "'a'", at: 0),
        RejectedDocument("bare word", "abc", at: 0),

        // Numbers.
        RejectedDocument("leading zero", "01", at: 1),
        RejectedDocument("leading zero in an array", "[01]", at: 2),
        RejectedDocument("point without fraction", "1.", at: 2),
        RejectedDocument("point before exponent", "1.e5", at: 2),
        RejectedDocument("minus alone", "-", at: 1),
        RejectedDocument("minus before a letter", "-a", at: 1),
        RejectedDocument("leading point", ".5", at: 0),
        RejectedDocument("leading plus", "+1", at: 0),
        RejectedDocument("exponent without digits", "1e", at: 2),
        RejectedDocument("exponent with a sign only", "1e+", at: 3),
        RejectedDocument("double minus", "--1", at: 1),
        RejectedDocument("thousands separator", "[1,234.5,]", at: 9),

        // Strings.
        RejectedDocument("unterminated string", #""abc"#, at: 4),
        RejectedDocument("unterminated string after an escape", #""a\n"#, at: 4),
        RejectedDocument("unterminated escape", #""\"#, at: 2),
        RejectedDocument("raw control character", "\"a\u{01}b\"", at: 2),
        RejectedDocument("raw tab", "\"a\tb\"", at: 2),
        RejectedDocument("raw newline after an escape", "\"\\n\n\"", at: 3),
        RejectedDocument("unknown escape", #""\x""#, at: 3),
        RejectedDocument("escaped single quote", #""\'""#, at: 3),
        RejectedDocument("invalid hex digit", #""\u12G4""#, at: 5),
        RejectedDocument("truncated \\u escape", #""\u12"#, at: 3),
        RejectedDocument("lone high surrogate", #""\ud83d""#, at: 7),
        RejectedDocument("lone low surrogate", #""\ude00""#, at: 7),
        RejectedDocument("high surrogate before a non-surrogate", #""\ud83d\u0041""#, at: 13),
        RejectedDocument("two high surrogates", #""\ud83d\ud83d""#, at: 13),

        // Invalid UTF-8 inside strings, on the fast path and after an escape.
        RejectedDocument("byte 0xFF", bytes: [0x22, 0xFF, 0x22], at: 1),
        RejectedDocument("truncated two-byte sequence", bytes: [0x22, 0xC3, 0x22], at: 1),
        RejectedDocument("lone continuation byte", bytes: [0x22, 0x61, 0x80, 0x22], at: 1),
        RejectedDocument("overlong slash", bytes: [0x22, 0xC0, 0xAF, 0x22], at: 1),
        RejectedDocument("UTF-8 encoded surrogate", bytes: [0x22, 0xED, 0xA0, 0x80, 0x22], at: 1),
        RejectedDocument("beyond U+10FFFF", bytes: [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], at: 1),
        RejectedDocument("truncated Korean syllable", bytes: [0x22, 0xEB, 0xB9, 0x22], at: 1),
        RejectedDocument("0xFF after an escape", bytes: [0x22, 0x5C, 0x6E, 0xFF, 0x22], at: 5),
        RejectedDocument(
            "partial sequence before an escape", bytes: [0x22, 0xC3, 0x5C, 0x6E, 0x22], at: 5),
        RejectedDocument(
            "invalid UTF-8 in a member name", bytes: Array(#"{""#.utf8) + [0xFF] + Array(#"":1}"#.utf8)),
        RejectedDocument("invalid UTF-8 outside a string", bytes: [0x5B, 0xFF, 0x5D], at: 1),

        // Structure.
        RejectedDocument("unclosed array", "[1,2", at: 4),
        RejectedDocument("unclosed object", #"{"a":1"#, at: 6),
        RejectedDocument("lone open bracket", "[", at: 1),
        RejectedDocument("lone open brace", "{", at: 1),
        RejectedDocument("lone close bracket", "]", at: 0),
        RejectedDocument("trailing comma in an array", "[1,]", at: 3),
        RejectedDocument("trailing comma in an object", #"{"a":1,}"#, at: 7),
        RejectedDocument("double comma", "[1,,2]", at: 3),
        RejectedDocument("missing comma", "[1 2]", at: 3),
        RejectedDocument("missing colon", #"{"a" 1}"#, at: 5),
        RejectedDocument("missing value", #"{"a":}"#, at: 5),
        RejectedDocument("number as member name", "{1:2}", at: 1),
        RejectedDocument("unquoted member name", "{a:2}", at: 1),
        RejectedDocument("mismatched brackets", "[}", at: 1),
        RejectedDocument("mismatched braces", #"{"a":1]"#, at: 6),
        RejectedDocument("duplicated closing bracket", "[[1]]]", at: 5),
    ]

    @Test("rejects", arguments: rejected)
    func rejects(_ document: RejectedDocument) {
        let error = #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(document.bytes) }
        guard let error else { return }
        if let offset = document.offset {
            #expect(error.offset == offset, "\(error)")
        }
        #expect((0...document.bytes.count).contains(error.offset))
        #expect(error.description.hasPrefix("invalid JSON at byte \(error.offset): "))
        #expect(!error.reason.isEmpty)
    }

    @Test("the syntax error names the problem")
    func reasons() {
        func reason(_ text: String) -> String? {
            do throws(JSONSyntaxError) {
                _ = try JSONParser.parse(text)
                return nil
            } catch {
                return error.reason
            }
        }
        #expect(reason("") == "unexpected end of input")
        #expect(reason("[1]x") == "unexpected data after the JSON value")
        #expect(reason("\"abc") == "unterminated string")
        #expect(reason("\"a\u{01}\"") == "control character in a string")
        #expect(reason(#""\x""#) == #"invalid escape '\x'"#)
        #expect(reason("\u{01}") == #"unexpected character '\x1'"#)
        #expect(reason(nestedArrays(JSONParser.maximumDepth + 1)) == "nesting deeper than 256")
    }

    @Test("nesting up to the depth limit is accepted", arguments: [1, 2, 100, 255, 256])
    func depthAccepted(depth: Int) throws {
        var arrays = try JSONParser.parse(nestedArrays(depth))
        for _ in 1..<depth {
            guard case .array(let elements) = arrays, elements.count == 1 else {
                Issue.record("expected one nested array, found \(arrays)")
                return
            }
            arrays = elements[0]
        }
        #expect(arrays == [])

        var objects = try JSONParser.parse(nestedObjects(depth))
        for _ in 0..<depth {
            guard case .object(let object) = objects, let inner = object["a"] else {
                Issue.record("expected an object with member a, found \(objects)")
                return
            }
            objects = inner
        }
        #expect(objects == .number("1"))
    }

    @Test(
        "nesting past the depth limit is rejected where the limit is crossed",
        arguments: [257, 258, 100_000])
    func depthRejected(depth: Int) {
        let arrays = #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(nestedArrays(depth)) }
        #expect(arrays?.offset == JSONParser.maximumDepth)

        let prefixLength = #"{"a":"#.utf8.count
        let objects = #expect(throws: JSONSyntaxError.self) {
            try JSONParser.parse(nestedObjects(depth))
        }
        #expect(objects?.offset == JSONParser.maximumDepth * prefixLength)

        let mixed = String(repeating: #"[{"a":"#, count: depth / 2 + 1) + "1"
        let mixedError = #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(mixed) }
        #expect(mixedError?.reason == "nesting deeper than 256")
    }

    @Test("bytes can come from any collection")
    func collections() throws {
        let text = #"xx{"a":[1,"비"]}yy"#
        let bytes = Array(text.utf8)
        let expected: JSONValue = ["a": [.number("1"), "비"]]
        #expect(try JSONParser.parse(bytes[2..<(bytes.count - 2)]) == expected)
        #expect(try JSONParser.parse(text.utf8.dropFirst(2).dropLast(2)) == expected)
        #expect(try JSONParser.parse(String(text.dropFirst(2).dropLast(2))) == expected)
    }

    @Test("every proper prefix of a document is rejected")
    func prefixes() {
        let text =
            #"{"status":"0000","data":[{"p":"1.5","q":-2E+3,"k":"비\u00e9\ud83d\ude00"},[true,false,null]]}"#
        let bytes = Array(text.utf8)
        #expect(throws: Never.self) { try JSONParser.parse(bytes) }
        for length in 0..<bytes.count {
            #expect(throws: JSONSyntaxError.self, "prefix of \(length) bytes") {
                try JSONParser.parse(bytes[..<length])
            }
        }
    }
}
