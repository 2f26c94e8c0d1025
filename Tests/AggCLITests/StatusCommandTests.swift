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
        #expect(root["status"][0]["withdrawFee"].value == .null)
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
                == "exchange,symbol,network,deposit,withdraw,withdrawFee,asOf,note\n"
                + "bithumb,SOL,SOL,closed,open,,2024-08-08T08:12:15.000Z,\n")
    }

    @Test("the four Korean venues, each asked once: networks, fees and times as each publishes them")
    func fourKoreanVenues() async throws {
        let run = await runCLI(
            ["status", "BTC", "USDT", "--offline", "-f", "csv"],
            registry: fixedRegistry(["bithumb", "upbit", "coinone", "korbit", "binance"]), now: Self.now)
        #expect(run.status == 1)
        #expect(
            run.output
                == "exchange,symbol,network,deposit,withdraw,withdrawFee,asOf,note\n"
                + "bithumb,BTC,BTC,open,open,,2024-08-08T08:12:15.000Z,\n"
                + "bithumb,USDT,ETH,open,open,,2024-08-08T08:12:15.000Z,\n"
                + "bithumb,USDT,TRX,open,closed,,2024-08-08T08:12:15.000Z,\n"
                + "coinone,BTC,,open,open,0.0008,2024-08-08T08:12:15.030Z,\n"
                + "coinone,USDT,,open,closed,7,2024-08-08T08:12:15.030Z,withdraw: suspended\n"
                + "korbit,BTC,BTC,open,open,0.0008,2024-08-08T08:12:15.000Z,\n"
                + "korbit,USDT,ETH,open,open,5,2024-08-08T08:12:15.000Z,\n"
                + "korbit,USDT,TRX,open,closed,1,2024-08-08T08:12:15.000Z,\n"
                + "upbit,BTC,,unknown,unknown,,2024-08-08T08:12:15.000Z,Upbit publishes no wallet status without an API key\n"
        )
        #expect(run.errorLines.contains("agg: upbit: USDT/KRW is not listed (USDT is not on its transfer status list)"))
    }

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
