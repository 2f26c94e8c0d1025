import AggTestKit
import Foundation
import Testing

@testable import AggJSON

/// The oracle of the lazy reader (`JSONCursor(parsing:)` over a `JSONTape`): on every document,
/// it accepts what `JSONParser.parse` accepts and refuses the rest with the same syntax error,
/// and at every path of an accepted document every accessor answers what the same accessor
/// answers on `JSONCursor(JSONParser.parse(bytes))`: the same value, the same decimal (the same
/// digits), the same error with the same path and reason. The documents: every frame of every
/// venue's stream fixtures, every small recorded REST answer, damaged copies of the frames, and
/// edge cases of names and numbers.
@Suite("JSON tape (lazy reader) oracle")
struct JSONTapeOracleTests {
    /// `body`'s value or its decoding error.
    static func outcome<T>(_ body: () throws(JSONDecodingError) -> T) -> Result<T, JSONDecodingError> {
        do throws(JSONDecodingError) {
            return .success(try body())
        } catch {
            return .failure(error)
        }
    }

    /// Decimals agree when equal and written with the same digits.
    static func same(_ left: Result<Decimal, JSONDecodingError>, _ right: Result<Decimal, JSONDecodingError>) -> Bool {
        switch (left, right) {
        case (.success(let a), .success(let b)): a == b && "\(a)" == "\(b)"
        case (.failure(let a), .failure(let b)): a == b
        default: false
        }
    }

    static func same(
        _ left: Result<Decimal?, JSONDecodingError>, _ right: Result<Decimal?, JSONDecodingError>
    ) -> Bool {
        switch (left, right) {
        case (.success(let a), .success(let b)): a == b && a.map { "\($0)" } == b.map { "\($0)" }
        case (.failure(let a), .failure(let b)): a == b
        default: false
        }
    }

    /// Every accessor of `lazy` against `plain`, at this path and every path below, with
    /// `probes` (names that may or may not be members) looked up in every object.
    static func compare(
        _ lazy: JSONCursor, _ plain: JSONCursor, probes: [String], sourceLocation: SourceLocation = #_sourceLocation
    ) -> Int {
        var checked = 1
        let path = plain.path
        func agree(_ condition: Bool, _ what: String) {
            #expect(condition, "\(what) at \(path)", sourceLocation: sourceLocation)
        }
        agree(lazy.path == plain.path, "path")
        agree(lazy.value == plain.value, "value")
        agree(lazy.isPresent == plain.isPresent, "isPresent")
        agree(lazy.exists == plain.exists, "exists")
        agree(lazy.isObject == plain.isObject, "isObject")
        agree(lazy.kindDescription == plain.kindDescription, "kindDescription")
        agree(outcome(lazy.string) == outcome(plain.string), "string()")
        agree(outcome(lazy.optionalString) == outcome(plain.optionalString), "optionalString()")
        agree(outcome(lazy.text) == outcome(plain.text), "text()")
        agree(outcome(lazy.bool) == outcome(plain.bool), "bool()")
        agree(outcome(lazy.int64) == outcome(plain.int64), "int64()")
        agree(outcome(lazy.optionalInt64) == outcome(plain.optionalInt64), "optionalInt64()")
        agree(same(outcome(lazy.decimal), outcome(plain.decimal)), "decimal()")
        agree(same(outcome(lazy.number), outcome(plain.number)), "number()")
        agree(same(outcome(lazy.optionalDecimal), outcome(plain.optionalDecimal)), "optionalDecimal()")
        let lazyElements = outcome(lazy.elements)
        let plainElements = outcome(plain.elements)
        switch (lazyElements, plainElements) {
        case (.success(let lazyList), .success(let plainList)):
            agree(lazyList.count == plainList.count, "elements().count")
            for (a, b) in zip(lazyList, plainList) { checked += compare(a, b, probes: probes) }
            for index in [-1, plainList.count] {
                checked += compare(lazy[index], plain[index], probes: [])
            }
        case (.failure(let a), .failure(let b)): agree(a == b, "elements() error")
        default: agree(false, "elements()")
        }
        switch (outcome(lazy.members), outcome(plain.members)) {
        case (.success(let lazyMembers), .success(let plainMembers)):
            agree(lazyMembers.map(\.key) == plainMembers.map(\.key), "members() keys")
            for (a, b) in zip(lazyMembers, plainMembers) { checked += compare(a.value, b.value, probes: probes) }
            let names = plainMembers.map(\.key) + probes
            for name in names {
                agree(lazy[name].exists == plain[name].exists, "[\(name)].exists")
                agree(lazy[name].value == plain[name].value, "[\(name)].value")
                agree(lazy[name].path == plain[name].path, "[\(name)].path")
                agree(
                    same(
                        outcome { () throws(JSONDecodingError) in try lazy.decimal(name) },
                        outcome { () throws(JSONDecodingError) in try plain.decimal(name) }), "decimal(\(name))")
                agree(
                    same(
                        outcome { () throws(JSONDecodingError) in try lazy.optionalDecimal(name) },
                        outcome { () throws(JSONDecodingError) in try plain.optionalDecimal(name) }),
                    "optionalDecimal(\(name))")
                agree(
                    same(
                        outcome { () throws(JSONDecodingError) in try lazy.number(name) },
                        outcome { () throws(JSONDecodingError) in try plain.number(name) }), "number(\(name))")
                agree(
                    same(
                        outcome { () throws(JSONDecodingError) in try lazy.optionalNumber(name) },
                        outcome { () throws(JSONDecodingError) in try plain.optionalNumber(name) }),
                    "optionalNumber(\(name))")
            }
        case (.failure(let a), .failure(let b)): agree(a == b, "members() error")
        default: agree(false, "members()")
        }
        return checked
    }

    /// Parses `bytes` both ways: the same refusal, or the same answers everywhere. Returns the
    /// number of paths compared (0 for a refusal).
    @discardableResult
    static func expectAgreement(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> Int {
        let plain: Result<JSONValue, JSONSyntaxError>
        do throws(JSONSyntaxError) {
            plain = .success(try JSONParser.parse(bytes))
        } catch {
            plain = .failure(error)
        }
        let lazy: Result<JSONCursor, JSONSyntaxError>
        do throws(JSONSyntaxError) {
            lazy = .success(try JSONCursor(parsing: bytes))
        } catch {
            lazy = .failure(error)
        }
        switch (lazy, plain) {
        case (.success(let cursor), .success(let value)):
            return compare(cursor, JSONCursor(value), probes: probes, sourceLocation: sourceLocation)
        case (.failure(let a), .failure(let b)):
            #expect(a == b, sourceLocation: sourceLocation)
            return 0
        default:
            Issue.record(
                "one accepts, the other refuses: \(String(decoding: bytes.prefix(200), as: UTF8.self))",
                sourceLocation: sourceLocation)
            return 0
        }
    }

    /// Names looked up in every object besides its own: absent ones, and near misses.
    static let probes = ["", "nope", "c ", "C", "é", "e\u{301}", "\u{212A}", "K", "data", "price", "trade_price"]

    /// Every text and binary frame of every venue's `Fixtures/<id>/stream/*.jsonl`.
    static func streamFrames() throws -> [[UInt8]] {
        let root = Fixtures.directory
        var frames: [[UInt8]] = []
        for venue in try FileManager.default.contentsOfDirectory(atPath: root.path).sorted() {
            let directory = root.appendingPathComponent(venue).appendingPathComponent("stream")
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { continue }
            for name in names.sorted() where name.hasSuffix(".jsonl") {
                for step in try WebSocketScript.load(directory.appendingPathComponent(name)).steps {
                    guard case .send(let opcode, let data, _, _) = step, opcode == .text || opcode == .binary else {
                        continue
                    }
                    frames.append(data)
                }
            }
        }
        return frames
    }

    @Test("every venue's stream frames: the same answers at every path")
    func streamFixtures() throws {
        let frames = try Self.streamFrames()
        #expect(frames.count > 50)
        var paths = 0
        for frame in frames { paths += Self.expectAgreement(frame) }
        #expect(paths > 500)
    }

    @Test("every recorded REST answer up to 64 KB: the same answers at every path")
    func restFixtures() throws {
        let root = Fixtures.directory
        let files = FileManager.default.enumerator(atPath: root.path)?.compactMap { $0 as? String } ?? []
        var documents = 0
        for file in files.sorted() where file.hasSuffix(".json") {
            let bytes = try Fixtures.bytes(file)
            guard bytes.count <= 64 * 1024 else { continue }
            Self.expectAgreement(bytes)
            documents += 1
        }
        #expect(documents > 50)
    }

    @Test("damaged stream frames (8 copies of each): the same refusal or the same answers")
    func damagedFrames() throws {
        var random = SeededRandom(seed: 22)
        var refused = 0
        for frame in try Self.streamFrames() {
            for _ in 0..<8 where Self.expectAgreement(Mutator.mutate(frame, using: &random)) == 0 {
                refused += 1
            }
        }
        // Most damage breaks the syntax; the refusals must be among the cases compared.
        #expect(refused > 100)
    }

    @Test(
        "edge cases: escaped, non-ASCII and repeated names, numbers and decimal strings of every form",
        arguments: [
            #"{"\u0063":"1","c":"2"}"#,
            #"{"é":1,"e\u0301":2,"\u212A":3,"K":4,"Ke":5}"#,
            #"{"e\u0301":"7"}"#,
            #"{"a":"1","a":"2"}"#,
            #"{"p":"1e3","q":1e3,"r":1E-4,"s":"00.5","t":"-0","u":" 1","v":"1,000","w":"","x":null,"y":".5"}"#,
            #"{"p":"12345678901234567890123456789012345678901","q":1e999,"r":-1.5e-130,"s":"\u0031\u002e5"}"#,
            #"{"i":"1723104735027","j":1723104735027,"k":"+5","l":"1.0","m":-9223372036854775808,"n":9223372036854775808}"#,
            #"{"b":true,"f":false,"o":{},"a":[],"n":[1,[2,[3,{"x":"4"}]]]}"#,
            #"[{"a":1},{"a":2},"3",4.5,null,true]"#,
            #""\ud83d\ude00 \"q\" \\ \/ \b\f\n\r\t""#,
            #"{"비트코인":{"closing_price":"1.5"},"\u0000":"z"}"#,
            "  {\"a\" : [ 1 , 2 ] }  ",
            "123", "-0.0e+0", "\"x\"", "null", "true",
            "{\"a\":1", "{\"a\" 1}", "[1,]", "{,}", "\"\\x\"", "\"\\ud800\"", "01", "1.", "-", "nul", "[", "",
            "{\"a\":\"\u{1}\"}", "{\"a\":1}x", "\"\u{FF}\"",
        ])
    func edgeCases(document: String) {
        Self.expectAgreement(Array(document.utf8))
    }

    @Test("invalid UTF-8 inside strings and names is refused the same way")
    func invalidUTF8() {
        for bytes: [UInt8] in [
            [0x22, 0xFF, 0x22], [0x7B, 0x22, 0xC3, 0x22, 0x3A, 0x31, 0x7D], [0x22, 0x5C, 0x6E, 0xED, 0xA0, 0x80, 0x22],
            [0x22, 0xE2, 0x82, 0xAC, 0x22],
        ] {
            Self.expectAgreement(bytes)
        }
    }

    @Test("nesting past the parser's limit is refused at the same byte")
    func deepNesting() {
        let depth = JSONParser.maximumDepth
        Self.expectAgreement(Array((String(repeating: "[", count: depth) + String(repeating: "]", count: depth)).utf8))
        Self.expectAgreement(
            Array((String(repeating: "[", count: depth + 1) + String(repeating: "]", count: depth + 1)).utf8))
        Self.expectAgreement(Array((String(repeating: "{\"a\":", count: depth + 1) + "1").utf8))
    }
}
