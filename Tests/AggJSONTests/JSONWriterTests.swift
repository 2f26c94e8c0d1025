import AggJSON
import Testing

@Suite("JSONValue.serialized")
struct JSONWriterTests {
    static let documents: [String] = [
        "null", "true", "false", "0", "-0", "80630000.0000", "1E-7", "-1.5e+10", #""""#,
        #""0.00000001""#,
        #""\"\\\/\b\f\n\r\t""#,
        #""\u0000\u0001\u001f\u007f""#,
        #""caf\u00e9 \ud83d\ude00 비트코인 \ube44\ud2b8""#,
        #""\u2028\u2029\ufeff""#,
        "[]", "{}", "[[]]", "[{}]", #"{"":{}}"#,
        #"[1,"a",null,true,false,{},[],-0.0E+00]"#,
        #"{"b":1,"a":2,"b":3}"#,
        #"{"a\"b":{"c\\d":["e\nf"]}}"#,
        #"{"status":"0000","data":{"BTC":{"closing_price":"80630000.0000","date":"1723104735027"},"date":"1723104735027"}}"#,
        #"[{"market":"KRW-BTC","korean_name":"비트코인","trade_price":80630000.0,"signed_change_rate":-0.0017}]"#,
        " \n[ 1 ,\t{ \"k\" : [ ] } ]\r\n",
        nestedArrays(JSONParser.maximumDepth),
        nestedObjects(JSONParser.maximumDepth),
    ]

    @Test("parse, serialize and parse again gives the same value", arguments: documents)
    func roundTrip(text: String) throws {
        let value = try JSONParser.parse(text)
        let compact = value.serialized()
        #expect(try JSONParser.parse(compact) == value)
        #expect(try JSONParser.parse(value.serialized(pretty: true)) == value)
        // Compact output is a fixed point: writing what was read back changes nothing.
        #expect(try JSONParser.parse(compact).serialized() == compact)
    }

    @Test("compact output has no white space and keeps numbers and member order")
    func compact() throws {
        let value = try JSONParser.parse(
            " { \"b\" : [ 1 , 2.50 , 1E-7 ] , \"a\" : { } , \"c\" : null } ")
        #expect(value.serialized() == #"{"b":[1,2.50,1E-7],"a":{},"c":null}"#)
        #expect(JSONValue.number("80630000.0000").serialized() == "80630000.0000")
        #expect(JSONValue.string("0.00000001").serialized() == #""0.00000001""#)
    }

    static let escapes: [(value: String, json: String)] = [
        ("plain", #""plain""#),
        ("", #""""#),
        ("say \"hi\"", #""say \"hi\"""#),
        ("back\\slash", #""back\\slash""#),
        ("a/b", #""a/b""#),
        ("line\nfeed", #""line\nfeed""#),
        ("carriage\rreturn", #""carriage\rreturn""#),
        ("tab\there", #""tab\there""#),
        ("\u{0}", #""\u0000""#),
        ("\u{1}\u{8}\u{C}\u{1F}", #""\u0001\u0008\u000c\u001f""#),
        // What a terminal would act on (TerminalControls) is escaped too: DEL, C1, bidi, U+2028.
        ("\u{7F}", #""\u007f""#),
        ("\u{9B}2J\u{202E}", #""\u009b2J\u202e""#),
        ("café", "\"café\""),
        ("비트코인", "\"비트코인\""),
        ("😀", "\"😀\""),
        ("e\u{301}", "\"e\u{301}\""),
        ("\u{2028}", #""\u2028""#),
        ("\u{A0}€\u{2030}", "\"\u{A0}€\u{2030}\""),
    ]

    @Test("strings are escaped minimally; non-ASCII stays UTF-8", arguments: escapes)
    func escaping(value: String, json: String) throws {
        let written = JSONValue.string(value).serialized()
        #expect(Array(written.utf8) == Array(json.utf8))
        guard case .string(let read) = try JSONParser.parse(written) else {
            Issue.record("\(written) did not parse to a string")
            return
        }
        #expect(Array(read.unicodeScalars) == Array(value.unicodeScalars))
    }

    @Test("member names are escaped like strings")
    func memberNames() {
        let value: JSONValue = ["say \"비\"\n": "x"]
        #expect(value.serialized() == #"{"say \"비\"\n":"x"}"#)
    }

    @Test("pretty output indents by two spaces, one member or element a line")
    func pretty() throws {
        let value = try JSONParser.parse(#"{"a":[1,{}],"b":{"c":null,"d":[[]]},"e":[],"f":"비"}"#)
        let expected = """
            {
              "a": [
                1,
                {}
              ],
              "b": {
                "c": null,
                "d": [
                  []
                ]
              },
              "e": [],
              "f": "비"
            }
            """
        #expect(value.serialized(pretty: true) == expected)
        #expect(JSONValue.array([]).serialized(pretty: true) == "[]")
        #expect(JSONValue.number("1").serialized(pretty: true) == "1")
        #expect(JSONValue.array([.number("1")]).serialized(pretty: true) == "[\n  1\n]")
    }
}

@Suite("JSONWriter, value by value")
struct JSONStreamWriterTests {
    /// The same document through the streaming calls, compact and pretty.
    func write(pretty: Bool) throws -> String {
        var json = JSONWriter(pretty: pretty)
        json.beginObject()
        json.member("last", decimal: try DecimalText.parse("80630000.50"))
        json.member("open", decimal: nil)
        json.member("tiny", decimal: try DecimalText.parse("-1e-20", form: .jsonNumber))
        json.member("name", string: "say \"비\"\n\u{1B}")
        json.member("none", string: nil)
        json.member("say \"hi\"", bool: true)
        json.member("min", integer: .min)
        json.member("zero", integer: 0)
        json.member("list", [.number("1"), "a"])
        json.key("empty")
        json.beginArray()
        json.endArray()
        json.key("nested")
        json.beginArray()
        json.beginObject()
        json.endObject()
        json.integer(-42)
        json.endArray()
        json.endObject()
        return json.text
    }

    @Test("streams the same text as the equivalent JSONValue, compact and pretty", arguments: [false, true])
    func matchesTree(pretty: Bool) throws {
        let tree: JSONValue = [
            "last": "80630000.5", "open": nil, "tiny": "-0.00000000000000000001", "name": "say \"비\"\n\u{1B}",
            "none": nil, "say \"hi\"": true, "min": .number("-9223372036854775808"), "zero": .number("0"),
            "list": [.number("1"), "a"], "empty": [], "nested": [[:], .number("-42")],
        ]
        #expect(try write(pretty: pretty) == tree.serialized(pretty: pretty))
    }

    @Test("newline ends the text with a line break, after the document")
    func newline() {
        var json = JSONWriter(pretty: true)
        json.beginArray()
        json.integer(1)
        json.endArray()
        json.newline()
        #expect(json.text == "[\n  1\n]\n")
    }

    @Test("writes the exact compact text")
    func compact() throws {
        #expect(
            try write(pretty: false)
                == #"{"last":"80630000.5","open":null,"tiny":"-0.00000000000000000001","name":"say \"비\"\n\u001b","#
                + #""none":null,"say \"hi\"":true,"min":-9223372036854775808,"zero":0,"list":[1,"a"],"empty":[],"#
                + #""nested":[{},-42]}"#)
    }
}
