import AggTestKit
import Foundation
import Testing

/// Sample data for an attack, not a recording: a venue whose error message and market names
/// carry terminal control sequences (ESC ] to retitle the window, BEL, ESC [ 2J to clear the
/// screen, CR LF to forge a second `agg:` line, a right-to-left override).
private enum Hostile {
    /// What the hostile text reads as once escaped.
    static let message = "점검 중\u{1B}]0;pwned\u{07}\u{1B}[2J\r\nagg: bithumb ETH/KRW: forged"
    static let messageShown = #"점검 중\x1B]0;pwned\x07\x1B[2J\x0D\x0Aagg: bithumb ETH/KRW: forged"#
    static let koreanName = "비트코인\u{1B}]0;pwned\u{07}"
    static let koreanShown = #"비트코인\x1B]0;pwned\x07"#
    static let englishName = "Bitcoin\r\n\u{1B}[2J\u{202E}nioctiB"
    static let englishShown = #"Bitcoin\x0D\x0A\x1B[2J\u{202E}nioctiB"#
    /// Every kind of control in one market name: ESC, BEL, a C1 CSI (U+009B), DEL, a
    /// right-to-left override, a bidirectional isolate and a line separator.
    static let everyControl = "Ether\u{1B}]0;t\u{07}\u{9B}31m\u{7F}\u{202E}\u{2066}\u{2028}end"
    /// `everyControl` as tables, stderr and CSV show it.
    static let everyControlShown = #"Ether\x1B]0;t\x07\x9B31m\x7F\u{202E}\u{2066}\u{2028}end"#
    /// `everyControl` as JSON writes it: the same text, every control as a `\u` escape.
    static let everyControlJSON = #"Ether\u001b]0;t\u0007\u009b31m\u007f\u202e\u2066\u2028end"#

    /// `text` as a JSON string literal, control characters as `\u00XX` as a venue sends them.
    static func json(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            if scalar.value < 0x20 {
                out += String(format: "\\u%04x", scalar.value)
            } else if scalar == "\"" || scalar == "\\" {
                out += "\\" + String(scalar)
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// A loopback server: Bithumb answers every ticker with its error envelope carrying
    /// `message`; Upbit lists one market whose names are hostile.
    static func server() throws -> FixtureServer {
        try FixtureServer(venues: ["bithumb", "upbit"]) { venue, request in
            switch (venue, request.path) {
            case ("bithumb", let path) where path.hasPrefix("/public/ticker/"):
                return .json(#"{"status":"5600","message":"# + json(message) + "}")
            case ("upbit", "/v1/market/all"):
                return .json(
                    #"[{"market":"KRW-BTC","korean_name":"# + json(koreanName) + #","english_name":"#
                        + json(englishName) + #"},{"market":"KRW-ETH","korean_name":"이더리움","english_name":"#
                        + json(everyControl) + "}]")
            default:
                return nil
            }
        }
    }
}

/// The real binary against venues that send terminal control sequences: nothing of them reaches
/// the terminal raw, on stdout or stderr, and every error stays one line.
@Suite("agg end to end: hostile venue text is escaped")
struct EndToEndHostileTextTests {
    func environment(_ server: FixtureServer, columns: Int? = nil) -> [String: String] {
        var environment = server.environment
        environment["COLUMNS"] = columns.map(String.init)
        environment["AGG_HOME"] = NSTemporaryDirectory() + "agg-e2e-hostile-" + UUID().uuidString
        return environment
    }

    /// Whether `text` holds a control character other than the line feeds agg itself writes.
    func hasRawControl(_ text: String) -> Bool {
        text.unicodeScalars.contains {
            switch $0.value {
            case 0x0A: false
            case 0x00...0x1F, 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069, 0x2028, 0x2029:
                true
            default: false
            }
        }
    }

    @Test("a venue error message: one escaped line on stderr, nothing raw in the table")
    func errorMessage() async throws {
        let server = try Hostile.server()
        for arguments in [["quote", "BTC", "-e", "bithumb"], ["quote", "BTC", "ETH", "-e", "bithumb"]] {
            let run = try await AggBinary.run(arguments + ["-f", "table"], environment: environment(server))
            #expect(run.status == 1)
            #expect(!hasRawControl(run.output))
            #expect(!hasRawControl(run.error))
            // Two coins share Bithumb's one ALL request, so its error is one line for both.
            let markets = arguments.count == 4 ? "BTC/KRW" : "2 markets (BTC/KRW, ETH/KRW)"
            #expect(run.errorLines == ["agg: bithumb \(markets): error 5600: \(Hostile.messageShown)"])
        }
    }

    @Test("market names in a search table are escaped, and the columns still line up")
    func marketNames() async throws {
        let server = try Hostile.server()
        let run = try await AggBinary.run(
            ["search", "BTC", "-e", "upbit", "-f", "table"], environment: environment(server, columns: 200))
        #expect(run.status == 0)
        #expect(run.error == "")
        #expect(
            run.output == """
                EXCHANGE  MARKET   NAME (KO)                 NAME (EN)                                    LAST
                upbit     BTC/KRW  \(Hostile.koreanShown)  \(Hostile.englishShown)  80,651,000

                """)
    }

    @Test("JSON keeps the venue's text exactly, with JSON escapes")
    func json() async throws {
        let server = try Hostile.server()
        let run = try await AggBinary.run(
            ["search", "BTC", "-e", "upbit", "-f", "json"], environment: environment(server))
        #expect(run.status == 0)
        #expect(!hasRawControl(run.output))
        #expect(run.output.contains(#""nameEn":"Bitcoin\r\n\u001b[2J\u202enioctiB""#))
        #expect(run.output.contains(#""nameKo":"비트코인\u001b]0;pwned\u0007""#))
    }

    @Test("one policy in every format: table and CSV show each control as its escape, JSON as \\u, nothing raw")
    func everyFormat() async throws {
        let server = try Hostile.server()
        let expected = [
            "table": """
            EXCHANGE  MARKET   NAME (KO)  NAME (EN)                                                     LAST
            upbit     ETH/KRW  이더리움   \(Hostile.everyControlShown)  3,407,000

            """,
            "csv": """
            exchange,symbol,base,quote,nameKo,nameEn,last
            upbit,ETH/KRW,ETH,KRW,이더리움,"\(Hostile.everyControlShown)",3407000

            """,
            "json":
                #"{"query":"ETH","results":[{"exchange":"upbit","symbol":"ETH/KRW","base":"ETH","quote":"KRW","nameKo":"이더리움","nameEn":""#
                + Hostile.everyControlJSON + #"","last":"3407000"}],"errors":[]}"# + "\n",
        ]
        for (format, output) in expected.sorted(by: { $0.key < $1.key }) {
            let run = try await AggBinary.run(
                ["search", "ETH", "-e", "upbit", "-f", format], environment: environment(server, columns: 200))
            #expect(run.status == 0, "\(format): \(run.error)")
            #expect(run.error == "")
            #expect(!hasRawControl(run.output), "\(format)")
            #expect(run.output == output, "\(format)")
        }
    }
}
