import AggCore
import AggJSON
import AggTestKit
import Foundation
import Testing

@testable import AggServices

/// The venues these tests answer from their recordings (2024-08-08T08:12:15Z).
private let tableBases = [
    "bithumb": "https://api.bithumb.com", "upbit": "https://api.upbit.com", "binance": "https://api.binance.com",
]

/// A table for Upbit, which publishes no withdrawal fee without a key: BTC at 0.0004, read on
/// 2024-07-01, 38 days before the recordings.
private let upbitTable = WithdrawalFeeTable(
    source: "https://upbit.example/withdrawal-fees", asOf: "2024-07-01", fees: ["BTC": decimal("0.0004")])

/// Bithumb, Upbit and Binance (and the test FX source), `venue` with `table`.
private func tabledRegistry(_ table: WithdrawalFeeTable? = upbitTable, on venue: String = "upbit") -> AdapterRegistry {
    var registry = AdapterRegistry(
        AdapterRegistry.standard.registrations.filter { ["bithumb", "upbit", "binance"].contains($0.descriptor.id) }
            .map {
                var registration = $0
                if registration.descriptor.id == venue { registration.descriptor.withdrawalFees = table }
                return registration
            })
    registry.register(TestFXAdapter.self)
    return registry
}

/// A shipped table fills the fee a venue's own answer lacks, says so with its page, day and age,
/// and yields to the config file; `agg arb` prices the transfer with it.
@Suite("shipped withdrawal-fee tables")
struct WithdrawalFeeTableCommandTests {
    static let now = Timestamp(millisecondsSince1970: 1_723_104_735_000)

    @Test("agg status: Upbit's BTC row gets the tabled fee, its source, day and age (JSON, CSV, table)")
    func statusRow() async throws {
        let json = await runCLI(
            ["status", "BTC", "-e", "upbit", "--offline", "-f", "json"], registry: tabledRegistry(), now: Self.now)
        #expect(json.status == 0)
        let row = try json.json()["status"][0]
        #expect(try row["withdrawFee"].string() == "0.0004")
        #expect(try row["withdrawalFee"].value?.serialized() == #"{"model":"fixed","amount":"0.0004"}"#)
        #expect(
            try row["feeSource"].value?.serialized()
                == #"{"kind":"table","source":"https://upbit.example/withdrawal-fees","asOf":"2024-07-01","ageDays":38}"#
        )
        let csv = await runCLI(
            ["status", "BTC", "-e", "upbit", "--offline", "-f", "csv"], registry: tabledRegistry(), now: Self.now)
        #expect(
            csv.output
                == StatusCommandTests.csvHeader
                + "upbit,BTC,,unknown,unknown,0.0004,2024-08-08T08:12:15.000Z,Upbit publishes no wallet status without an API key,fixed,,,,,table,2024-07-01\n"
        )
        let table = await runCLI(
            ["status", "BTC", "-e", "upbit", "--offline", "-f", "table"], registry: tabledRegistry(), now: Self.now)
        #expect(
            table.output
                == "EXCHANGE  SYMBOL  NETWORK  DEPOSIT  WITHDRAW         FEE  MIN  FEE SOURCE                     NOTE\n"
                + "upbit     BTC     -        unknown  unknown   0.0004 BTC    -  table 2024-07-01, 38 days old  Upbit publishes no wallet status without an API key\n"
                + "taker fees: upbit 0.05% (published schedule, read 2026-09-23)\n")
    }

    @Test("the table fills only a missing fee: a venue's own fee stays the venue's, a coin the table lacks has none")
    func venueFirst() async throws {
        let bithumbTable = WithdrawalFeeTable(
            source: "https://bithumb.example/fees", asOf: "2024-07-01", fees: ["BTC": 9, "XRP": 9])
        var registry = tabledRegistry()
        registry.register(
            AdapterRegistration(
                descriptor: {
                    var descriptor = registry.descriptor(id: "bithumb")!
                    descriptor.withdrawalFees = bithumbTable
                    return descriptor
                }(), make: registry.registrations.first { $0.descriptor.id == "bithumb" }!.make))
        let run = await runCLI(
            ["status", "BTC", "XRP", "-e", "bithumb,upbit", "--offline", "-f", "csv"], registry: registry,
            now: Self.now)
        #expect(run.status == 0)
        let lines = run.output.split(separator: "\n").map(String.init)
        #expect(lines[1] == "bithumb,BTC,BTC,open,open,0.0005,2024-08-08T08:12:15.000Z,,fixed,,,,0.001,venue,")
        #expect(
            lines.last
                == "upbit,XRP,,unknown,unknown,,2024-08-08T08:12:15.000Z,\"Upbit publishes no wallet status without an API key; market warnings: GLOBAL_PRICE_DIFFERENCES, TRADING_VOLUME_SOARING\",,,,,,,"
        )
    }

    @Test("agg status of a venue without transfer status: the table's networks, both sides unknown and said so")
    func statusWithoutStatus() async throws {
        let table = WithdrawalFeeTable(
            source: "https://binance.example/fees", asOf: "2024-08-01",
            fees: ["BTC": Decimal(string: "0.0002")!, "USDT/TRX": 1, "USDT/ETH": Decimal(string: "4.5")!])
        let run = await runCLI(
            ["status", "BTC", "USDT", "ETH", "-e", "binance", "--offline", "-f", "csv"],
            registry: tabledRegistry(table, on: "binance"), now: Self.now)
        #expect(run.status == 1)
        #expect(
            run.output
                == StatusCommandTests.csvHeader
                + "binance,BTC,,unknown,unknown,0.0002,2024-08-08T08:12:15.000Z,Binance publishes no transfer status; the fee is agg's table,fixed,,,,,table,2024-08-01\n"
                + "binance,USDT,ETH,unknown,unknown,4.5,2024-08-08T08:12:15.000Z,Binance publishes no transfer status; the fee is agg's table,fixed,,,,,table,2024-08-01\n"
                + "binance,USDT,TRX,unknown,unknown,1,2024-08-08T08:12:15.000Z,Binance publishes no transfer status; the fee is agg's table,fixed,,,,,table,2024-08-01\n"
        )
        #expect(
            run.errorLines.filter { !$0.hasPrefix("agg: offline:") } == [
                "agg: binance: ETH/USDT is not listed (ETH is not in agg's withdrawal-fee table for it)"
            ]
        )
        // Without a table it is still a usage error.
        let untabled = await runCLI(
            ["status", "BTC", "-e", "binance", "--offline"], registry: tabledRegistry(nil, on: "binance"),
            now: Self.now)
        #expect(untabled.status == 64)
        #expect(untabled.error == "agg: binance publishes no transfer status; see 'agg exchanges'\n")
    }

    @Test("the config file's withdrawalFees beat the table")
    func configBeatsTable() async throws {
        let path = try configFile(#"{"venueSettings":{"upbit":{"withdrawalFees":{"BTC":"0.0003"}}}}"#)
        let run = await runCLI(
            ["status", "BTC", "-e", "upbit", "--offline", "-f", "json"], environment: ["AGG_CONFIG": path],
            registry: tabledRegistry(), now: Self.now)
        #expect(run.status == 0)
        let row = try run.json()["status"][0]
        #expect(try row["withdrawFee"].string() == "0.0003")
        #expect(try row["feeSource"].value?.serialized() == #"{"kind":"configuration"}"#)
    }

    static func arb(
        _ format: String, from: String = "upbit", environment: [String: String] = [:],
        table: WithdrawalFeeTable? = upbitTable
    ) async throws -> CLIRun {
        let responder = try FixtureResponder(venues: tableBases)
        let http = AsyncScriptedHTTPClient { request in
            if request.url.hasPrefix(TestFXAdapter.descriptor.defaultBaseURL) {
                return HTTPResponse(status: 200, headers: [], body: Array(TestFXAdapter.body.utf8), url: request.url)
            }
            return try responder.respond(to: request)
        }
        return await runCLI(
            ["arb", "BTC", "--from", from, "--to", "bithumb", "--notional", "10M", "-f", format],
            environment: environment, http: http, registry: tabledRegistry(table, on: from), now: Self.now)
    }

    // Upbit's asks from 80,651,000 buy 10,000,000 KRW of BTC plus Upbit's 0.05 % on top
    // (0.123989675396... BTC for 10,005,000 KRW); the table's 0.0004 BTC goes to the withdrawal;
    // the rest sells on Bithumb's bids less 0.25 %.
    @Test("agg arb upbit -> bithumb: the transfer fee from the table, an exact net, said tabled with its age")
    func arbRoute() async throws {
        let run = try await Self.arb("json")
        let json = try run.json()
        #expect(
            json["transfer"].value?.serialized()
                == #"{"network":"BTC","fee":"0.0004","feeCurrency":"BTC","withdraw":"unknown","deposit":"open","#
                + #""feeSource":{"kind":"table","source":"https://upbit.example/withdrawal-fees","asOf":"2024-07-01","ageDays":38}}"#
        )
        // 9,964,738.758... KRW gross on Bithumb, 9,939,826.911... after its 0.25 %, less the
        // 10,005,000 paid (checked with Python's decimal module on the same fixtures).
        #expect(try json["net"].string() == "-65173.088780175941")
        #expect(try json["asOf"]["withdrawalFee"].string() == "2024-07-01")
        let table = try await Self.arb("table")
        #expect(table.output.contains("fee 0.0004 BTC (tabled, read 2024-07-01, 38 days old)"))
        // Without the table the fee is unknown and there is no net, as before.
        let untabled = try await Self.arb("json", table: nil)
        #expect(
            try untabled.json()["transfer"].value?.serialized()
                == #"{"network":"BTC","fee":null,"feeCurrency":"BTC","withdraw":"unknown","deposit":"open"}"#)
        #expect(try untabled.json()["net"].value == .null)
    }

    @Test("agg arb: the config file's withdrawal fee beats the table")
    func arbConfig() async throws {
        let path = try configFile(#"{"venueSettings":{"upbit":{"withdrawalFees":{"BTC":"0.0003"}}}}"#)
        let run = try await Self.arb("table", environment: ["AGG_CONFIG": path])
        #expect(run.output.contains("fee 0.0003 BTC (config file)"))
    }

    @Test(
        "agg arb from a venue without transfer status: the table gives the network and its fee, both sides' word kept")
    func arbWithoutStatus() async throws {
        let table = WithdrawalFeeTable(
            source: "https://binance.example/fees", asOf: "2024-08-01", fees: ["BTC": Decimal(string: "0.0002")!])
        let run = try await Self.arb("json", from: "binance", table: table)
        let json = try run.json()
        #expect(
            json["transfer"].value?.serialized()
                == #"{"network":"BTC","fee":"0.0002","feeCurrency":"BTC","withdraw":"unknown","deposit":"open","#
                + #""feeSource":{"kind":"table","source":"https://binance.example/fees","asOf":"2024-08-01","ageDays":7}}"#
        )
        // 10,000,000 KRW at 1442.35 buys Binance's asks in USDT, less 0.1 % of the coin and the
        // table's 0.0002 BTC, sold on Bithumb's bids less 0.25 % (Python's decimal module agrees).
        #expect(try json["net"].string() == "-479585.396534242246")
    }
}
