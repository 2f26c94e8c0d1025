import AggCore
import AggJSON
import AggTestKit
import Foundation
import Testing

/// The real `agg arb` binary, over real libcurl, against the loopback server serving every
/// venue's and FX source's recordings in Fixtures/ (the venues recorded at 2024-08-08T08:12:15Z;
/// exchangerate's USD->KRW 1331.529034 of 2024-08-21 is the freshest FX rate).
@Suite("agg arb end to end")
struct EndToEndArbTests {
    func run(_ arguments: [String]) async throws -> (status: Int32, json: JSONCursor, error: String) {
        let server = try FixtureServer()
        let run = try await AggBinary.run(
            ["arb"] + arguments + ["-f", "json"], environment: try server.privateEnvironment())
        return (run.status, try JSONCursor(JSONParser.parse(Array(run.output.utf8))), run.error)
    }

    static func text(_ cursor: JSONCursor) -> String { cursor.value?.serialized() ?? "" }

    // Korbit's asks from 80,645,000 buy 10,000,000 KRW: 0.124000248000496000992... BTC (the
    // first level holds it all); Korbit's taker fee is 0 %. 0.0008 BTC goes to the withdrawal
    // (Korbit's own fee), 0.123200248... BTC sells on Bithumb's bids for 9,933,340.3955...
    // KRW, less 0.25 %: 9,908,507.0445... received, net -91,492.9554... KRW (-0.91 %).
    // Checked with Python's decimal module on the same fixtures.
    @Test("korbit -> bithumb: the whole route, exact, with Korbit's own withdrawal fee")
    func korbitToBithumb() async throws {
        let (status, json, error) = try await run(["BTC", "--from", "korbit", "--to", "bithumb", "--notional", "10M"])
        #expect(status == 0, "\(error)")
        #expect(error == "")
        #expect(
            Self.text(json["buy"])
                == #"{"exchange":"korbit","averagePrice":"80645000","filled":"0.124000248","cost":"10000000","fee":"0"}"#
        )
        #expect(
            Self.text(json["transfer"])
                == #"{"network":"BTC","fee":"0.0008","feeCurrency":"BTC","withdraw":"open","deposit":"open"}"#)
        #expect(
            Self.text(json["sell"])
                == #"{"exchange":"bithumb","averagePrice":"80627600.648141550024","filled":"0.123200248","#
                + #""proceeds":"9908507.044547151094","fee":"24833.350988839978"}"#)
        #expect(try json["net"].string() == "-91492.955452848906")
        #expect(try json["netPercent"].string() == "-0.91")
        #expect(json["breakEvenNotional"].value == .null)
        #expect(json["depthLimited"].value == .bool(false))
        #expect(json["fx"].value == .null)
        #expect(try json["asOf"]["buyBook"].string() == "2024-08-08T08:12:14.712Z")
        #expect(try json["asOf"]["sellBook"].string() == "2024-08-08T08:12:16.112Z")
        #expect(try json["asOf"]["buyFee"].string() == "2026-09-22")
        #expect(Self.text(json["errors"]) == "[]")
    }

    // The config file's fees win: Korbit's taker 0.1 % (10,000 KRW on top of the 10,000,000
    // bought, the same 0.124000248 BTC) and 0.0005 BTC to withdraw, so 0.123500248 BTC arrives.
    @Test("korbit -> bithumb with the config file's taker and withdrawal fees for Korbit")
    func configFees() async throws {
        let server = try FixtureServer()
        var environment = try server.privateEnvironment()
        let config = try temporaryDirectory().appendingPathComponent("config.json")
        try #"{"venueSettings":{"korbit":{"takerFee":"0.001","withdrawalFees":{"BTC":"0.0005"}}}}"#
            .write(to: config, atomically: true, encoding: .utf8)
        environment["AGG_CONFIG"] = config.path
        let run = try await AggBinary.run(
            ["arb", "BTC", "--from", "korbit", "--to", "bithumb", "--notional", "10M", "-f", "json"],
            environment: environment)
        let json = try JSONCursor(JSONParser.parse(Array(run.output.utf8)))
        #expect(run.status == 0, "\(run.error)")
        #expect(
            Self.text(json["buy"])
                == #"{"exchange":"korbit","averagePrice":"80645000","filled":"0.124000248","cost":"10010000","fee":"10000"}"#
        )
        #expect(
            Self.text(json["transfer"])
                == #"{"network":"BTC","fee":"0.0005","feeCurrency":"BTC","withdraw":"open","deposit":"open"}"#)
        #expect(try json["sell"]["filled"].string() == "0.123500248")
    }

    // 10,000,000 KRW at 1331.529034 KRW a dollar (USDT = USD) is 7,510.16293648464296... USDT,
    // all at Binance's best ask 58,412.07: 0.128572107382680... BTC, 0.1 % of it taken in BTC.
    // Neither Binance nor Upbit publishes BTC's withdrawal fee or status without a key: the
    // route is on BTC's own chain, unknown both ways, and has no net (exit 1).
    @Test("binance -> upbit: the buy through the FX rate, and an unknown withdrawal fee said instead of guessed")
    func binanceToUpbit() async throws {
        let (status, json, error) = try await run(["BTC", "--from", "binance", "--to", "upbit", "--notional", "10M"])
        #expect(status == 1)
        #expect(
            Self.text(json["buy"])
                == #"{"exchange":"binance","averagePrice":"58412.07","filled":"0.128572107383","#
                + #""cost":"7510.162936484643","fee":"0.000128572107"}"#)
        #expect(
            Self.text(json["fx"])
                == #"{"source":"exchangerate","rate":"0.000751016294","asOf":"2024-08-21T00:02:31.000Z"}"#)
        #expect(
            Self.text(json["transfer"])
                == #"{"network":"BTC","fee":null,"feeCurrency":"BTC","withdraw":"unknown","deposit":"unknown"}"#)
        #expect(json["net"].value == .null)
        #expect(
            try json["errors"].elements().map { try $0["kind"].string() } == [
                "unknownFee", "unknownStatus", "unknownStatus",
            ])
        #expect(
            error.split(separator: "\n").map(String.init) == [
                "agg: the withdrawal fee of BTC on binance (BTC) is unknown: no net without it",
                "agg: binance does not say whether BTC withdrawals on BTC are open: the route assumes they are; check before sending",
                "agg: upbit does not say whether BTC deposits on BTC are open: the route assumes they are; check before sending",
            ])
    }

    // Upbit's asks from 80,651,000 buy 10,000,000 KRW plus Upbit's 0.05 % (5,000 KRW) on top.
    @Test("upbit -> bithumb: the buy with its fee on top, Bithumb's deposit open, Upbit's fee unknown")
    func upbitToBithumb() async throws {
        let (status, json, _) = try await run(["BTC", "--from", "upbit", "--to", "bithumb", "--notional", "10M"])
        #expect(status == 1)
        #expect(
            Self.text(json["buy"])
                == #"{"exchange":"upbit","averagePrice":"80651876.602628797978","filled":"0.123989675396","#
                + #""cost":"10005000","fee":"5000"}"#)
        #expect(
            Self.text(json["transfer"])
                == #"{"network":"BTC","fee":null,"feeCurrency":"BTC","withdraw":"unknown","deposit":"open"}"#)
        #expect(json["fx"].value == .null)
        #expect(json["net"].value == .null)
    }

    @Test("the same venue on both sides is exit 64 with one line, nothing asked")
    func sameVenue() async throws {
        let server = try FixtureServer()
        let run = try await AggBinary.run(
            ["arb", "BTC", "--from", "upbit", "--to", "upbit", "--notional", "10M"],
            environment: try server.privateEnvironment())
        #expect(run.status == 64)
        #expect(run.error == "agg: --from and --to are both upbit: a route needs two different venues\n")
        #expect(server.requests.isEmpty)
    }
}
