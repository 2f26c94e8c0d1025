import AggCore
import AggJSON
import AggTestKit
import Foundation
import Testing

@testable import AggOptions
@testable import AggServices

/// The config file's fees: `venueSettings.<id>.takerFee` and `.withdrawalFees`, strict decimals,
/// fed into every service's taker fee lookup and into `agg status`.
@Suite("fee overrides in the config file")
struct FeeOverrideTests {
    static let now = Timestamp(millisecondsSince1970: 1_723_104_735_000)

    @Test(
        "a bad fee is a config error: exit 78, one line naming the file and the key",
        arguments: [
            (
                #"{"venueSettings":{"bithumb":{"takerFee":"1"}}}"#,
                "$.venueSettings.bithumb.takerFee: '1' is not a taker rate from 0 up to 1 (0.0005 is 0.05 %)"
            ),
            (
                #"{"venueSettings":{"bithumb":{"takerFee":"-0.001"}}}"#,
                "$.venueSettings.bithumb.takerFee: '-0.001' is not a taker rate from 0 up to 1 (0.0005 is 0.05 %)"
            ),
            (
                #"{"venueSettings":{"bithumb":{"takerFee":"5e-4"}}}"#,
                "$.venueSettings.bithumb.takerFee: '5e-4' has an exponent: a decimal written as text must be written out in full"
            ),
            (
                #"{"venueSettings":{"bithumb":{"takerFee":"0,0005"}}}"#,
                "$.venueSettings.bithumb.takerFee: '0,0005' is not a decimal number"
            ),
            (
                #"{"venueSettings":{"bithumb":{"takerFee":"00.1"}}}"#,
                "$.venueSettings.bithumb.takerFee: '00.1' has leading zeros"
            ),
            (
                #"{"venueSettings":{"bithumb":{"takerFee":0.0005}}}"#,
                "$.venueSettings.bithumb.takerFee: expected a string, found a number"
            ),
            (
                #"{"venueSettings":{"bithumb":{"withdrawalFees":{"usdt/TRX":"1"}}}}"#,
                "$.venueSettings.bithumb.withdrawalFees.usdt/TRX: 'usdt/TRX' is not COIN or COIN/NETWORK (\"USDT/TRX\")"
            ),
            (
                #"{"venueSettings":{"bithumb":{"withdrawalFees":{"USDT/":"1"}}}}"#,
                "$.venueSettings.bithumb.withdrawalFees.USDT/: 'USDT/' is not COIN or COIN/NETWORK (\"USDT/TRX\")"
            ),
            (
                #"{"venueSettings":{"bithumb":{"withdrawalFees":{"USDT/TRX":"-1"}}}}"#,
                "$.venueSettings.bithumb.withdrawalFees.USDT/TRX: '-1' is negative"
            ),
            (
                #"{"venueSettings":{"bithumb":{"withdrawalFees":{"BTC":"1e-4"}}}}"#,
                "$.venueSettings.bithumb.withdrawalFees.BTC: '1e-4' has an exponent: a decimal written as text must be written out in full"
            ),
            (
                #"{"venueSettings":{"bithumb":{"withdrawalFees":["BTC"]}}}"#,
                "$.venueSettings.bithumb.withdrawalFees: expected an object, found an array"
            ),
        ])
    func malformed(text: String, problem: String) async throws {
        let path = try configFile(text)
        let client = ScriptedHTTPClient(body: "{}")
        let run = await runBithumbCLI(
            ["quote", "BTC", "-e", "bithumb"], environment: ["AGG_CONFIG": path], http: client)
        #expect(run.status == 78)
        #expect(run.error == "agg: config file \(path): \(problem)\n")
        #expect(run.output.isEmpty)
        #expect(client.requests.isEmpty)
    }

    @Test("takerFee reaches the context's lookup for every service; a venue without one keeps its schedule")
    func takerFee() throws {
        let configuration = try ConfigurationLoader.parse(
            Array(#"{"venueSettings":{"upbit":{"takerFee":"0.0004"},"binance":{"takerFee":"0"}}}"#.utf8),
            path: "/c.json", registry: .standard)
        #expect(configuration.feeOverrides["upbit"] == VenueFeeOverrides(takerFee: Decimal(string: "0.0004")!))
        var context = CLIContext(
            registry: .standard, environment: [:],
            console: Console(standardOutput: BufferSink(), standardError: BufferSink(), width: 80),
            makeHTTPClient: { _ in ScriptedHTTPClient(body: "{}") })
        context.configuration = configuration
        let lookup = context.takerFeeLookup
        #expect(
            lookup.taker(venue: "upbit", quotedIn: "KRW")
                == .init(fee: TakerFee(rate: Decimal(string: "0.0004")!), source: .configuration))
        #expect(
            lookup.taker(venue: "binance", quotedIn: "USDT")
                == .init(fee: TakerFee(rate: 0, buyCharge: .coin), source: .configuration))
        #expect(
            lookup.taker(venue: "bithumb", quotedIn: "KRW")
                == .init(
                    fee: TakerFee(rate: Decimal(string: "0.0025")!),
                    source: .schedule(
                        source: "https://support.bithumb.com/hc/ko/articles/51131554420377", asOf: "2026-09-22")))
    }

    @Test("config show prints the fees the file sets, under their venue")
    func show() async throws {
        let path = try configFile(
            #"{"venueSettings":{"bithumb":{"takerFee":"0.0004","withdrawalFees":{"USDT/TRX":"0.5","BTC":"0.0002"}}}}"#)
        let run = await runBithumbCLI(["config", "show"], environment: ["AGG_CONFIG": path])
        #expect(run.status == 0)
        #expect(
            try run.json()["venueSettings"]["bithumb"].value?.serialized()
                == #"{"api":"classic","takerFee":"0.0004","withdrawalFees":{"BTC":"0.0002","USDT/TRX":"0.5"}}"#)
    }

    @Test(
        "withdrawalFees: COIN/NETWORK over COIN, shown as the config's in agg status; the taker fee line says config file"
    )
    func withdrawalFees() async throws {
        let path = try configFile(
            #"{"venueSettings":{"korbit":{"takerFee":"0.0005","withdrawalFees":{"USDT/TRX":"0.5","USDT":"4","BTC":"0.0002"}}}}"#
        )
        let run = await runCLI(
            ["status", "BTC", "USDT", "-e", "korbit", "--offline", "-f", "csv"], environment: ["AGG_CONFIG": path],
            registry: fixedRegistry(["korbit"]), now: Self.now)
        #expect(run.status == 0)
        #expect(
            run.output
                == "exchange,symbol,network,deposit,withdraw,withdrawFee,asOf,note,feeModel,feeRate,feeMinimum,feeMaximum,withdrawMinimum,feeSource,feeAsOf\n"
                + "korbit,BTC,BTC,open,open,0.0002,2024-08-08T08:12:15.000Z,,fixed,,,,0.0001,configuration,\n"
                + "korbit,USDT,ETH,open,open,4,2024-08-08T08:12:15.000Z,,fixed,,,,10,configuration,\n"
                + "korbit,USDT,TRX,open,closed,0.5,2024-08-08T08:12:15.000Z,,fixed,,,,10,configuration,\n")
        let table = await runCLI(
            ["status", "BTC", "-e", "korbit", "--offline", "-f", "table"], environment: ["AGG_CONFIG": path],
            registry: fixedRegistry(["korbit"]), now: Self.now)
        #expect(
            table.output
                == "EXCHANGE  SYMBOL  NETWORK  DEPOSIT  WITHDRAW         FEE     MIN  FEE SOURCE  NOTE\n"
                + "korbit    BTC     BTC      open     open      0.0002 BTC  0.0001  config\n"
                + "taker fees: korbit 0.05% (config file)\n")
    }
}
