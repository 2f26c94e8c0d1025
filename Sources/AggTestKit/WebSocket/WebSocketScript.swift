import AggJSON
import Foundation

/// A frame script for `WebSocketLoopbackServer`: what the server expects from the client, what
/// it sends, and the faults it injects, one JSON object per line (`Fixtures/<id>/stream/*.jsonl`;
/// the format is in docs/testing.md, "Stream fixtures").
public struct WebSocketScript: Sendable, Equatable {
    /// Where the frames come from, as `routes.json`'s `data` says it for answers.
    public enum Provenance: Sendable, Equatable {
        /// Captured from the venue (`{"data":"recorded","recorded":"<when>"}`).
        case recorded(String)
        /// Written by hand or by a script (`{"data":"sample"}`).
        case sample
    }

    /// The header line's label; `nil` when the script has none (scripts written inside tests).
    public var provenance: Provenance?
    /// The steps, in order. After the last one the server answers pings and waits for the
    /// client's close.
    public var steps: [WebSocketScriptStep]

    /// Creates a script from steps.
    public init(provenance: Provenance? = nil, steps: [WebSocketScriptStep]) {
        self.provenance = provenance
        self.steps = steps
    }

    /// Parses JSON lines; blank lines are skipped. A first line with a `data` key is the header.
    ///
    /// - Throws: `WebSocketScriptError` naming the line that is not a valid step.
    public init(jsonLines text: String) throws(WebSocketScriptError) {
        var provenance: Provenance?
        var steps: [WebSocketScriptStep] = []
        for (offset, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = offset + 1
            guard !line.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\r" }) else { continue }
            let object: JSONObject
            do {
                guard case .object(let parsed) = try JSONParser.parse(String(line)) else {
                    throw WebSocketScriptError(line: number, reason: "not a JSON object")
                }
                object = parsed
            } catch let error as WebSocketScriptError {
                throw error
            } catch {
                throw WebSocketScriptError(line: number, reason: "\(error)")
            }
            if steps.isEmpty && provenance == nil, let data = object["data"], object["send"] == nil,
                object["expect"] == nil, object["fault"] == nil
            {
                provenance = try Self.provenance(data, object, line: number)
                continue
            }
            steps.append(try WebSocketScriptStep(object, line: number))
        }
        self.init(provenance: provenance, steps: steps)
    }

    /// Loads `Fixtures/<venue>/stream/<name>.jsonl`, which must start with its header line.
    public static func fixture(venue: String, name: String) throws -> WebSocketScript {
        try load(
            Fixtures.directory.appendingPathComponent(venue).appendingPathComponent("stream")
                .appendingPathComponent(name + ".jsonl"))
    }

    /// Loads a script file, which must start with its header line.
    public static func load(_ file: URL) throws -> WebSocketScript {
        guard let data = FileManager.default.contents(atPath: file.path) else {
            throw Fixtures.FixtureError(path: file.path)
        }
        let script = try WebSocketScript(jsonLines: String(decoding: data, as: UTF8.self))
        guard script.provenance != nil else {
            throw WebSocketScriptError(
                line: 1, reason: "\(file.lastPathComponent) has no header line ({\"data\":\"recorded\"|\"sample\"})")
        }
        return script
    }

    private static func provenance(_ data: JSONValue, _ object: JSONObject, line: Int) throws(WebSocketScriptError)
        -> Provenance
    {
        switch data {
        case .string("sample"): return .sample
        case .string("recorded"):
            guard case .string(let when) = object["recorded"] else {
                throw WebSocketScriptError(line: line, reason: "a recorded script needs \"recorded\": \"<when>\"")
            }
            return .recorded(when)
        default:
            throw WebSocketScriptError(line: line, reason: "\"data\" must be \"recorded\" or \"sample\"")
        }
    }
}

/// A line of a frame script that is not a valid step.
public struct WebSocketScriptError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The line number, from 1.
    public var line: Int
    /// What is wrong with it.
    public var reason: String

    public init(line: Int, reason: String) {
        self.line = line
        self.reason = reason
    }

    public var description: String { "frame script line \(line): \(reason)" }
}

/// The frame types a script names.
public enum WebSocketScriptOpcode: String, Sendable, Equatable {
    case text, binary, ping, pong, close

    /// The RFC 6455 opcode.
    public var code: UInt8 {
        switch self {
        case .text: 0x1
        case .binary: 0x2
        case .close: 0x8
        case .ping: 0x9
        case .pong: 0xA
        }
    }
}

/// How an `expect` step compares the client's message with its `data`.
public enum WebSocketScriptMatch: String, Sendable, Equatable {
    /// Byte for byte (the default).
    case exact
    /// As JSON values (the same members in the same order, whatever the spacing).
    case json
    /// The message contains `data`.
    case contains
}

/// One step of a frame script.
public enum WebSocketScriptStep: Sendable, Equatable {
    /// `{"expect":"text","data":"...","match":"exact|json|contains"}`: the client's next
    /// message (or control frame of that kind) must be this; otherwise the server records a
    /// violation and closes with 1008. Without `data` any payload passes.
    case expect(WebSocketScriptOpcode, data: [UInt8]?, match: WebSocketScriptMatch)
    /// `{"send":"text|binary|ping|pong","data":"..."|"base64":"...","fragments":n,"repeat":n}`:
    /// sends the message `repeat` times, each split into `fragments` frames.
    case send(WebSocketScriptOpcode, data: [UInt8], fragments: Int, repeats: Int)
    /// `{"fault":"handshake","status":429,"body":"..."}` (first step): answers the upgrade with
    /// this status instead of 101.
    case refuseHandshake(status: Int, body: String)
    /// `{"fault":"badAccept"}` (first step): a 101 with a wrong `Sec-WebSocket-Accept`.
    case badAccept
    /// `{"fault":"drop"}`: closes the TCP connection without a close frame.
    case drop
    /// `{"fault":"stall"}`: from now on sends nothing, not even pongs, until the client leaves.
    case stall
    /// `{"fault":"malformed"}`: a frame with the reserved opcode 0x3.
    case malformed
    /// `{"fault":"oversize","bytes":n}`: one binary message of n bytes (16 MiB + 1 by default).
    case oversize(bytes: Int)
    /// `{"fault":"close","code":n,"reason":"..."}`: a close frame (no code when `code` is
    /// absent), then the connection ends once the client answers.
    case close(code: UInt16?, reason: String)
    /// `{"fault":"error","data":"...","code":n}`: the venue's error message as text, then a
    /// close with `code` (1000 by default), as Upbit and Bithumb do.
    case error(data: [UInt8], code: UInt16)

    init(_ object: JSONObject, line: Int) throws(WebSocketScriptError) {
        func string(_ key: String) throws(WebSocketScriptError) -> String? {
            switch object[key] {
            case nil: return nil
            case .string(let value): return value
            default: throw WebSocketScriptError(line: line, reason: "\"\(key)\" must be a string")
            }
        }
        func integer(_ key: String) throws(WebSocketScriptError) -> Int? {
            switch object[key] {
            case nil: return nil
            case .number(let text):
                guard let value = Int(text), value >= 0 else {
                    throw WebSocketScriptError(line: line, reason: "\"\(key)\" must be a whole number")
                }
                return value
            default: throw WebSocketScriptError(line: line, reason: "\"\(key)\" must be a number")
            }
        }
        func payload() throws(WebSocketScriptError) -> [UInt8]? {
            if let base64 = try string("base64") {
                guard let data = Data(base64Encoded: base64) else {
                    throw WebSocketScriptError(line: line, reason: "\"base64\" is not base64")
                }
                return Array(data)
            }
            return try string("data").map { Array($0.utf8) }
        }
        func code() throws(WebSocketScriptError) -> UInt16? {
            guard let value = try integer("code") else { return nil }
            guard value >= 1000 && value <= 4999 else {
                throw WebSocketScriptError(line: line, reason: "\"code\" must be a close code (1000-4999)")
            }
            return UInt16(value)
        }
        func opcode(_ name: String) throws(WebSocketScriptError) -> WebSocketScriptOpcode {
            guard let opcode = WebSocketScriptOpcode(rawValue: name) else {
                throw WebSocketScriptError(line: line, reason: "unknown frame type \(name)")
            }
            return opcode
        }

        if let kind = try string("expect") {
            let match = try string("match").map { name throws(WebSocketScriptError) in
                guard let match = WebSocketScriptMatch(rawValue: name) else {
                    throw WebSocketScriptError(line: line, reason: "unknown match \(name)")
                }
                return match
            }
            self = .expect(try opcode(kind), data: try payload(), match: match ?? .exact)
        } else if let kind = try string("send") {
            let opcode = try opcode(kind)
            guard opcode != .close else {
                throw WebSocketScriptError(line: line, reason: "send a close with {\"fault\":\"close\"}")
            }
            let fragments = try integer("fragments") ?? 1
            guard fragments >= 1 else {
                throw WebSocketScriptError(line: line, reason: "\"fragments\" must be 1 or more")
            }
            self = .send(opcode, data: try payload() ?? [], fragments: fragments, repeats: try integer("repeat") ?? 1)
        } else if let fault = try string("fault") {
            switch fault {
            case "handshake":
                self = .refuseHandshake(status: try integer("status") ?? 403, body: try string("body") ?? "")
            case "badAccept": self = .badAccept
            case "drop": self = .drop
            case "stall": self = .stall
            case "malformed": self = .malformed
            case "oversize": self = .oversize(bytes: try integer("bytes") ?? 16 * 1024 * 1024 + 1)
            case "close": self = .close(code: try code(), reason: try string("reason") ?? "")
            case "error": self = .error(data: try payload() ?? [], code: try code() ?? 1000)
            default: throw WebSocketScriptError(line: line, reason: "unknown fault \(fault)")
            }
        } else {
            throw WebSocketScriptError(line: line, reason: "a step needs \"expect\", \"send\" or \"fault\"")
        }
    }
}
