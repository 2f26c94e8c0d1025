import AggCore
import AggJSON
import AggTestKit
import Foundation
import Testing

@testable import AggServices

/// `agg status` over the Bithumb and Upbit sample data, offline.
@Suite("agg status")
struct StatusCommandTests {
    static let now = Timestamp(millisecondsSince1970: 1_723_104_735_000)

    @Test(
        "JSON: one row per venue and network, exact values, Upbit unknown with its warnings, unlisted coins as errors")
    func json() async throws {
        let run = await runCLI(
            ["status", "BTC", "usdt", "XRP", "NOPE", "-e", "bithumb,upbit", "--offline", "-f", "json"], now: Self.now)
        #expect(run.status == 1)
        let root = try run.json()
        let rows = try root["status"].elements().map { row in
            [
                try row["exchange"].string(), try row["symbol"].string(), try row["network"].optionalString() ?? "-",
                try row["deposit"].string(), try row["withdraw"].string(),
            ].joined(separator: " ")
        }
        #expect(
            rows == [
                "bithumb BTC BTC open open", "bithumb USDT ETH open open", "bithumb USDT TRX open closed",
                "bithumb XRP XRP closed closed", "upbit BTC - unknown unknown", "upbit XRP - unknown unknown",
            ])
        #expect(try root["status"][0]["asOf"].string() == "2024-08-08T08:12:15.000Z")
        // Bithumb's fees come from /v2/fee/inout/ALL: fixed for BTC, a rate with a minimum on USDT/TRX.
        #expect(try root["status"][0]["withdrawFee"].string() == "0.0005")
        #expect(try root["status"][0]["withdrawalFee"].value?.serialized() == #"{"model":"fixed","amount":"0.0005"}"#)
        #expect(try root["status"][0]["withdrawMinimum"].string() == "0.001")
        #expect(try root["status"][0]["feeSource"].value?.serialized() == #"{"kind":"venue"}"#)
        #expect(root["status"][2]["withdrawFee"].value == .null)
        #expect(
            try root["status"][2]["withdrawalFee"].value?.serialized()
                == #"{"model":"percentage","rate":"0.0005","minimum":"1","maximum":null}"#)
        #expect(root["status"][4]["withdrawalFee"].value == .null)
        #expect(root["status"][4]["feeSource"].value == .null)
        #expect(
            try root["takerFees"].value?.serialized()
                == #"[{"exchange":"bithumb","quote":"KRW","rate":"0.0025","source":{"kind":"schedule","source":"https://support.bithumb.com/hc/ko/articles/51131554420377","asOf":"2026-09-22"}},"#
                + #"{"exchange":"upbit","quote":"KRW","rate":"0.0005","source":{"kind":"schedule","source":"https://upbit.com/service_center/fees","asOf":"2026-09-23"}}]"#
        )
        #expect(
            try root["status"][5]["note"].string()
                == "Upbit publishes no wallet status without an API key; market warnings: GLOBAL_PRICE_DIFFERENCES, TRADING_VOLUME_SOARING"
        )
        #expect(try root["status"][4]["note"].string() == "Upbit publishes no wallet status without an API key")
        let errors = try root["errors"].elements().map {
            "\(try $0["exchange"].string()) \(try $0["symbol"].string()) \(try $0["kind"].string())"
        }
        #expect(errors == ["bithumb NOPE notListed", "upbit USDT notListed", "upbit NOPE notListed"])
        // As with every command and format, each failure is also one line on stderr.
        let failures = run.errorLines.filter { !$0.hasPrefix("agg: offline:") }
        #expect(failures.count == 3)
        #expect(failures.contains("agg: upbit: USDT/KRW is not listed (USDT is not on its transfer status list)"))
    }

    @Test("CSV and the errors on stderr")
    func csv() async throws {
        let run = await runCLI(["status", "SOL", "-e", "bithumb", "--offline", "-f", "csv"], now: Self.now)
        #expect(run.status == 0)
        #expect(
            run.output
                == Self.csvHeader
                + "bithumb,SOL,SOL,closed,open,0.01,2024-08-08T08:12:15.000Z,,fixed,,,,0.1,venue,\n")
    }

    @Test("the four Korean venues, each asked once: networks, fees and times as each publishes them")
    func fourKoreanVenues() async throws {
        let run = await runCLI(
            ["status", "BTC", "USDT", "--offline", "-f", "csv"],
            registry: fixedRegistry(["bithumb", "upbit", "coinone", "korbit", "binance"]), now: Self.now)
        #expect(run.status == 1)
        #expect(
            run.output
                == Self.csvHeader
                + "bithumb,BTC,BTC,open,open,0.0005,2024-08-08T08:12:15.000Z,,fixed,,,,0.001,venue,\n"
                + "bithumb,USDT,ETH,open,open,5,2024-08-08T08:12:15.000Z,,fixed,,,,10,venue,\n"
                + "bithumb,USDT,TRX,open,closed,,2024-08-08T08:12:15.000Z,,percentage,0.0005,1,,10,venue,\n"
                + "coinone,BTC,,open,open,0.0008,2024-08-08T08:12:15.030Z,,fixed,,,,0.0001,venue,\n"
                + "coinone,USDT,,open,closed,7,2024-08-08T08:12:15.030Z,withdraw: suspended,fixed,,,,10,venue,\n"
                + "korbit,BTC,BTC,open,open,0.0008,2024-08-08T08:12:15.000Z,,fixed,,,,0.0001,venue,\n"
                + "korbit,USDT,ETH,open,open,5,2024-08-08T08:12:15.000Z,,fixed,,,,10,venue,\n"
                + "korbit,USDT,TRX,open,closed,1,2024-08-08T08:12:15.000Z,,fixed,,,,10,venue,\n"
                + "upbit,BTC,,unknown,unknown,,2024-08-08T08:12:15.000Z,Upbit publishes no wallet status without an API key,,,,,,,\n"
        )
        #expect(run.errorLines.contains("agg: upbit: USDT/KRW is not listed (USDT is not on its transfer status list)"))
    }

    @Test(
        "the table: each network's fee (fixed with its coin, or a rate with its bounds), minimum and source, then the taker fees"
    )
    func table() async throws {
        let run = await runCLI(
            ["status", "ETH", "USDT", "SOL", "-e", "bithumb", "--offline", "-f", "table"],
            registry: fixedRegistry(["bithumb"]), now: Self.now)
        #expect(run.status == 0)
        #expect(
            run.output
                == "EXCHANGE  SYMBOL  NETWORK  DEPOSIT  WITHDRAW                         FEE   MIN  FEE SOURCE  NOTE\n"
                + "bithumb   ETH     ETH      open     open      0.1% (min 0.002, max 0.01)  0.01  venue\n"
                + "bithumb   USDT    ETH      open     open                          5 USDT    10  venue\n"
                + "bithumb   USDT    TRX      open     closed                 0.05% (min 1)    10  venue\n"
                + "bithumb   SOL     SOL      closed   open                        0.01 SOL   0.1  venue\n"
                + "taker fees: bithumb 0.25% (published schedule, read 2026-09-22)\n")
    }

    static let csvHeader =
        "exchange,symbol,network,deposit,withdraw,withdrawFee,asOf,note,feeModel,feeRate,feeMinimum,feeMaximum,withdrawMinimum,feeSource,feeAsOf\n"

    @Test("a venue without transfer status is a usage error")
    func unsupported() async {
        let run = await runCLI(["status", "BTC", "-e", "binance"])
        #expect(run.status == 64)
        #expect(run.error == "agg: binance publishes no transfer status; see 'agg exchanges'\n")
    }

    @Test("the premium board's per venue and coin state")
    func premiumHook() {
        let report = TransferStatusService.Report(
            rows: [
                TransferStatus(exchange: "bithumb", coin: "USDT", network: "ETH", deposit: .open, withdraw: .open),
                TransferStatus(exchange: "bithumb", coin: "USDT", network: "TRX", deposit: .open, withdraw: .closed),
                TransferStatus(exchange: "bithumb", coin: "XRP", network: "XRP", deposit: .closed, withdraw: .closed),
                TransferStatus(exchange: "upbit", coin: "XRP", deposit: .unknown, withdraw: .unknown),
            ], errors: [])
        #expect(report.state(venue: "bithumb", coin: "USDT") == .open)
        #expect(report.state(venue: "bithumb", coin: "XRP") == .closed)
        #expect(report.state(venue: "upbit", coin: "XRP") == .unknown)
        #expect(report.state(venue: "coinone", coin: "XRP") == .unknown)
    }
}
