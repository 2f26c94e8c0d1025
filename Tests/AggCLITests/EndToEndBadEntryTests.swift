import AggJSON
import AggTestKit
import Foundation
import Testing

/// Rule 1 of issue 20, through the real binary: Bithumb's recorded ALL answer with XRP's price
/// damaged (`"1,234"`). Every other coin still answers; XRP alone fails, with its own path.
@Suite("agg end to end: one bad entry costs that entry")
struct EndToEndBadEntryTests {
    static let xrpError =
        "agg: bithumb XRP/KRW: unexpected response at $.data.XRP.closing_price: '1,234' is not a decimal number"

    static func server() throws -> FixtureServer {
        let recorded = String(decoding: try Fixtures.bytes("bithumb/ticker_ALL_KRW.json"), as: UTF8.self)
        let good = #""XRP":{"opening_price":"781","closing_price":"790.4""#
        let damaged = recorded.replacingOccurrences(
            of: good, with: #""XRP":{"opening_price":"781","closing_price":"1,234""#)
        precondition(damaged != recorded, "the fixture's XRP entry moved")
        return try FixtureServer(venues: ["bithumb"]) { venue, request in
            venue == "bithumb" && request.path == "/public/ticker/ALL_KRW" ? .json(damaged) : nil
        }
    }

    func environment(_ server: FixtureServer) -> [String: String] {
        var environment = server.environment
        environment["AGG_HOME"] = NSTemporaryDirectory() + "agg-e2e-bad-entry-" + UUID().uuidString
        return environment
    }

    @Test("quote BTC ETH XRP: BTC and ETH answer, XRP reports its own path")
    func batch() async throws {
        let server = try Self.server()
        let run = try await AggBinary.run(
            ["quote", "BTC", "ETH", "XRP", "-e", "bithumb", "-f", "json"], environment: environment(server))
        #expect(run.status == 1)
        #expect(run.errorLines == [Self.xrpError])
        let json = JSONCursor(try JSONParser.parse(Array(run.output.utf8)))
        let quotes = try json["quotes"].elements()
        #expect(try quotes.map { try $0["symbol"].string() } == ["BTC/KRW", "ETH/KRW"])
        #expect(try quotes.map { try $0["last"].string() } == ["80630000", "3406000"])
        #expect(try json["errors"].elements().map { try $0["symbol"].string() } == ["XRP/KRW"])
    }

    @Test("quote --all: every other coin answers; JSON errors name XRP and the path")
    func all() async throws {
        let server = try Self.server()
        let run = try await AggBinary.run(
            ["quote", "--all", "-e", "bithumb", "-f", "json"], environment: environment(server))
        #expect(run.status == 1)
        #expect(run.errorLines == [Self.xrpError])
        let json = JSONCursor(try JSONParser.parse(Array(run.output.utf8)))
        #expect(try json["quotes"].elements().count == 479)
        let errors = try json["errors"].elements()
        #expect(errors.count == 1)
        #expect(try errors.first?["symbol"].string() == "XRP/KRW")
        #expect(try errors.first?["kind"].string() == "decoding")
        #expect(
            try errors.first?["message"].string()
                == "unexpected response at $.data.XRP.closing_price: '1,234' is not a decimal number")
    }
}
