import AggTestKit
import Foundation
import Testing

@Suite("WebSocket loopback server: the frame script format")
struct WebSocketScriptTests {
    @Test("every step form parses to its step, with its defaults")
    func steps() throws {
        let script = try WebSocketScript(
            jsonLines: """
                {"data":"recorded","recorded":"2026-12-03T10:00:00Z"}

                {"expect":"text","data":"[1]","match":"json"}
                {"expect":"ping"}
                {"send":"binary","base64":"AAE=","fragments":2,"repeat":3}
                {"send":"text","data":"x"}
                {"fault":"handshake","status":429}
                {"fault":"badAccept"}
                {"fault":"drop"}
                {"fault":"stall"}
                {"fault":"malformed"}
                {"fault":"oversize"}
                {"fault":"oversize","bytes":10}
                {"fault":"close","code":4290,"reason":"quota"}
                {"fault":"close"}
                {"fault":"error","data":"{}"}
                """)
        #expect(script.provenance == .recorded("2026-12-03T10:00:00Z"))
        #expect(
            script.steps == [
                .expect(.text, data: Array("[1]".utf8), match: .json),
                .expect(.ping, data: nil, match: .exact),
                .send(.binary, data: [0, 1], fragments: 2, repeats: 3),
                .send(.text, data: Array("x".utf8), fragments: 1, repeats: 1),
                .refuseHandshake(status: 429, body: ""),
                .badAccept,
                .drop,
                .stall,
                .malformed,
                .oversize(bytes: 16 * 1024 * 1024 + 1),
                .oversize(bytes: 10),
                .close(code: 4290, reason: "quota"),
                .close(code: nil, reason: ""),
                .error(data: Array("{}".utf8), code: 1000),
            ])
        #expect(try WebSocketScript(jsonLines: #"{"data":"sample"}"#).provenance == .sample)
        #expect(try WebSocketScript(jsonLines: #"{"fault":"drop"}"#).provenance == nil)
    }

    @Test(
        "a bad line is refused with its number and reason",
        arguments: [
            (#"{"send":"close"}"#, #"send a close with {"fault":"close"}"#),
            (#"{"send":"shout"}"#, "unknown frame type shout"),
            (#"{"fault":"explode"}"#, "unknown fault explode"),
            (#"{"fault":"close","code":999}"#, "\"code\" must be a close code (1000-4999)"),
            (#"{"send":"text","fragments":0}"#, "\"fragments\" must be 1 or more"),
            (#"{"send":"text","base64":"%%"}"#, "\"base64\" is not base64"),
            (#"{"expect":"text","match":"fuzzy"}"#, "unknown match fuzzy"),
            (#"{"wait":1}"#, #"a step needs "expect", "send" or "fault""#),
            (#"[1]"#, "not a JSON object"),
            (#"{"data":"guessed"}"#, #""data" must be "recorded" or "sample""#),
            (#"{"data":"recorded"}"#, #"a recorded script needs "recorded": "<when>""#),
        ])
    func badLine(line: String, reason: String) {
        #expect(throws: WebSocketScriptError(line: 2, reason: reason)) {
            try WebSocketScript(jsonLines: "\n" + line)
        }
    }

    @Test("a script file must carry its header line")
    func fileHeader() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ws-script-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let good = folder.appendingPathComponent("good.jsonl")
        let bare = folder.appendingPathComponent("bare.jsonl")
        try Data(#"{"data":"sample"}\#n{"send":"text","data":"hi"}\#n"#.utf8).write(to: good)
        try Data(#"{"send":"text","data":"hi"}\#n"#.utf8).write(to: bare)
        #expect(
            try WebSocketScript.load(good)
                == WebSocketScript(
                    provenance: .sample, steps: [.send(.text, data: Array("hi".utf8), fragments: 1, repeats: 1)]))
        #expect(
            throws: WebSocketScriptError(
                line: 1, reason: #"bare.jsonl has no header line ({"data":"recorded"|"sample"})"#)
        ) { try WebSocketScript.load(bare) }
        #expect(throws: Fixtures.FixtureError.self) {
            try WebSocketScript.fixture(venue: "no-such-venue", name: "ticker")
        }
    }
}
