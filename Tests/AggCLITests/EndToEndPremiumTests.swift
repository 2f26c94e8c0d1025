import AggCore
import AggJSON
import AggTestKit
import Foundation
import Testing

/// The real `agg premium` binary, over real libcurl, against the loopback server serving every
/// venue's and FX source's recordings in Fixtures/ (the venues recorded at 2024-08-08T08:12:15Z).
@Suite("agg premium end to end")
struct EndToEndPremiumTests {
    // Hand-computed from the recordings: the freshest FX source is exchangerate (USD→KRW
    // 1331.529034, 2024-08-21). BTC's global reference is the median of binance 58412.07 USDT,
    // kraken 58419.9 USD and okx 58415.3 USDT, that is 58415.3 × 1331.529034 = 77781667.9798202
    // KRW; upbit's 80651000 is (80651000 / 77781667.9798202 − 1) × 100 = 3.6890 → 3.69 % over it,
    // and 0.5571 → 0.56 % over 58415.3 × upbit's USDT/KRW 1373. The tether premium is
    // 1373 (the median of the four KRW venues' USDT: 1372, 1373, 1373, 1373) / 1331.529034 − 1
    // = 3.1145 → 3.11 %.
    @Test("JSON: every venue's answer in one board, BTC and ETH rows exact, the FX used and the tether premium")
    func json() async throws {
        let server = try FixtureServer()
        let run = try await AggBinary.run(
            ["premium", "BTC", "ETH", "-f", "json"], environment: try server.privateEnvironment())
        #expect(run.status == 0, "\(run.error)")
        #expect(run.error == "")
        let json = try JSONCursor(JSONParser.parse(Array(run.output.utf8)))
        #expect(
            json["fx"].value?.serialized()
                == #"{"source":"exchangerate","rate":"1331.529034","asOf":"2024-08-21T00:02:31Z","#
                + #""attribution":"Rates By Exchange Rate API (https://www.exchangerate-api.com)"}"#)
        #expect(try json["usdtPremiumPercent"].string() == "3.11")
        #expect(
            try json["tether"].elements().map { "\(try $0["exchange"].string()) \(try $0["price"].string())" }
                == ["bithumb 1372", "coinone 1373", "korbit 1373", "upbit 1373"])
        let rows = try json["rows"].elements()
        #expect(try rows.map { try $0["base"].string() } == ["BTC", "ETH"])
        // Each venue's age members (EndToEndQuoteAgeTests checks them) taken out.
        #expect(
            rows[0].value.map(AgeFields.stripped)?.serialized()
                == """
                {"base":"BTC","venues":[\
                {"exchange":"bithumb","symbol":"BTC/KRW","last":"80630000","lastConverted":"80630000",\
                "premiumPercent":"3.66","usdtPremiumPercent":"0.60","volumeConverted":"109282011238.50126",\
                "local":true,"outlier":false,"transfer":"open","premVsBTC":null},\
                {"exchange":"coinone","symbol":"BTC/KRW","last":"80640000","lastConverted":"80640000",\
                "premiumPercent":"3.67","usdtPremiumPercent":"0.54","volumeConverted":"21034512874.2615",\
                "local":true,"outlier":false,"transfer":"open","premVsBTC":null},\
                {"exchange":"gopax","symbol":"BTC/KRW","last":"80640000","lastConverted":"80640000",\
                "premiumPercent":"3.67","usdtPremiumPercent":null,"volumeConverted":"2829795970.9824",\
                "local":true,"outlier":false,"transfer":"unknown","premVsBTC":null},\
                {"exchange":"korbit","symbol":"BTC/KRW","last":"80645000","lastConverted":"80645000",\
                "premiumPercent":"3.68","usdtPremiumPercent":"0.55","volumeConverted":"14721590432.51286",\
                "local":true,"outlier":false,"transfer":"open","premVsBTC":null},\
                {"exchange":"upbit","symbol":"BTC/KRW","last":"80651000","lastConverted":"80651000",\
                "premiumPercent":"3.69","usdtPremiumPercent":"0.56","volumeConverted":"311604512879.45103",\
                "local":true,"outlier":false,"transfer":"unknown","premVsBTC":null},\
                {"exchange":"binance","symbol":"BTC/USDT","last":"58412.07","lastConverted":"77777367.14104038",\
                "premiumPercent":"-0.01","usdtPremiumPercent":null,"volumeConverted":"2400369403571.04785730372812",\
                "local":false,"outlier":false,"transfer":"unknown","premVsBTC":null},\
                {"exchange":"kraken","symbol":"BTC/USD","last":"58419.9","lastConverted":"77787793.0133766",\
                "premiumPercent":"0.01","usdtPremiumPercent":null,"volumeConverted":"335906912048.138719495711812",\
                "local":false,"outlier":false,"transfer":"unknown","premVsBTC":null},\
                {"exchange":"okx","symbol":"BTC/USDT","last":"58415.3","lastConverted":"77781667.9798202",\
                "premiumPercent":"0.00","usdtPremiumPercent":null,"volumeConverted":"626767166922.02848144444612",\
                "local":false,"outlier":false,"transfer":"unknown","premVsBTC":null}],\
                "reference":{"method":"median of binance, kraken, okx in USD (USDT = USD)",\
                "price":"77781667.9798202","priceUSD":"58415.3"},\
                "volumeConverted":"459472423395.70905","flags":[]}
                """)
        // ETH: 2478.52 (okx, the median) × 1331.529034 = 3300221.34134968; coinone's USDT premium
        // is 3406000 / (2478.52 × 1373) − 1 = 0.0879 → 0.09 %.
        let eth = rows[1]
        #expect(try eth["reference"]["price"].string() == "3300221.34134968")
        #expect(
            try eth["venues"].elements().map {
                "\(try $0["exchange"].string()) \(try $0["premiumPercent"].string()) "
                    + ((try? $0["usdtPremiumPercent"].string()) ?? "-")
            } == [
                "bithumb 3.21 0.16", "coinone 3.21 0.09", "gopax 3.17 -", "korbit 3.24 0.12", "upbit 3.24 0.12",
                "binance -0.01 -", "kraken 0.01 -", "okx 0.00 -",
            ])
        // premVsBTC: ETH's premium less BTC's on the same venue (bithumb 3.21 - 3.66).
        #expect(
            try eth["venues"].elements().map {
                "\(try $0["exchange"].string()) \(try $0["premVsBTC"].string())"
            } == [
                "bithumb -0.45", "coinone -0.46", "gopax -0.50", "korbit -0.44", "upbit -0.45", "binance 0.00",
                "kraken 0.00", "okx 0.00",
            ])
        #expect(try json["errors"].elements().isEmpty)
        // One all-tickers request per venue, no per-coin request.
        let targets = server.requests.map(\.target)
        #expect(targets.filter { $0.hasPrefix("/binance/") } == ["/binance/api/v3/ticker/24hr"])
        // Upbit: its tickers, and its market details for transfer status (asked at the same time).
        #expect(
            Set(targets.filter { $0.hasPrefix("/upbit/") })
                == ["/upbit/v1/ticker/all?quote_currencies=KRW", "/upbit/v1/market/all?isDetails=true"])
    }

    @Test("table: the FX line, the tether line and the BTC rows as printed; --fx picks the source")
    func table() async throws {
        let server = try FixtureServer()
        let run = try await AggBinary.run(
            ["premium", "BTC", "--fx", "frankfurter", "--basis", "fx", "-f", "table"],
            environment: try server.privateEnvironment())
        #expect(run.status == 0, "\(run.error)")
        let lines = run.output.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("FX: USD→KRW 1,373.59 from frankfurter, as of 2024-08-07T14:00:00Z (") == true)
        // 58415.3 × 1373.59 = 80238671.927; upbit: 80651000 / 80238671.927 − 1 = 0.5139 → 0.51 %.
        #expect(
            lines[1] == "Tether premium: -0.04% (USDT/KRW: bithumb -0.12%, coinone -0.04%, korbit -0.04%, upbit -0.04%)"
        )
        // Which venues make the reference, and that Coinbase (no all-tickers request) is not
        // among them though compare asks it.
        #expect(
            lines[2]
                == "Global price: each coin's median on binance, kraken, okx in USD (USDT = USD), outliers left out; "
                + "not asked: coinbase (no all-tickers request; agg compare asks it)")
        // AGE (the recordings are days old by the wall clock: stale) taken out.
        #expect(lines[3].contains("VOLUME 24H         AGE  NOTE"))
        #expect(lines.dropFirst(4).allSatisfy { $0.range(of: #"  \d+d stale"#, options: .regularExpression) != nil })
        #expect(
            lines.dropFirst(3).map { $0.replacing(#/ +(AGE|\d+d stale)/#, with: "") } == [
                "COIN  EXCHANGE  LAST (KRW)  GLOBAL (KRW)  PREMIUM  VS BTC       VOLUME 24H  NOTE",
                "BTC   bithumb   80,630,000    80,238,672   +0.49%       -  109,282,011,239",
                "      coinone   80,640,000                 +0.50%       -   21,034,512,874",
                "      gopax     80,640,000                 +0.50%       -    2,829,795,971",
                "      korbit    80,645,000                 +0.51%       -   14,721,590,433",
                "      upbit     80,651,000                 +0.51%       -  311,604,512,879",
            ])
        #expect(!server.requests.contains { $0.target.hasPrefix("/exchangerate/") })
    }
}
