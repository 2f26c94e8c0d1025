import AggCore
import AggTestKit
import FoundationEssentials
import Testing

@Suite("Premium board")
struct PremiumBoardTests {
    static let fx = RateValue(value: decimal("1371.55"), source: "frankfurter", asOf: nil)

    static func quote(
        _ exchange: String, _ base: String, _ quote: String, _ last: String, quoteVolume: String? = nil,
        baseVolume: String? = nil
    ) -> Quote {
        Quote(
            exchange: exchange, market: Market(base: base, quote: quote), last: decimal(last),
            baseVolume: baseVolume.flatMap { Decimal(string: $0) },
            quoteVolume: quoteVolume.flatMap { Decimal(string: $0) })
    }

    /// BTC on two Korean and two global venues, at the moment of the recorded fixtures; USDT/KRW
    /// is sample data.
    static let btc = [
        quote("upbit", "BTC", "KRW", "80651000", quoteVolume: "311604512879.45103"),
        quote("bithumb", "BTC", "KRW", "80630000", quoteVolume: "109282011238.50126"),
        quote("binance", "BTC", "USDT", "58412.07", quoteVolume: "1802716532.85710318"),
        quote("coinbase", "BTC", "USD", "58431.29", baseVolume: "14871.30945112"),
        quote("upbit", "USDT", "KRW", "1374"),
        quote("bithumb", "USDT", "KRW", "1376"),
    ]

    @Test("premiums on both bases, the reference, volumes and the tether premium")
    func bothBases() throws {
        let board = PremiumBoard(currency: "KRW", quotes: Self.btc, fx: Self.fx)
        #expect(board.rows.map(\.base) == ["BTC"])
        let row = try #require(board.rows.first)
        let reference = try #require(row.reference)
        #expect(reference.dollars == decimal("58421.68"))
        #expect(reference.converted == decimal("80128255.204"))
        #expect(reference.exchanges == ["binance", "coinbase"])
        #expect(reference.method == "median of binance, coinbase in USD (USDT = USD)")
        #expect(row.venues.map(\.exchange) == ["bithumb", "upbit", "binance", "coinbase"])
        #expect(row.venues.map(\.isLocal) == [true, true, false, false])
        #expect(row.venues.map(\.premiumPercent) == [0.63, 0.65, -0.02, 0.02].map { decimal("\($0)") })
        #expect(row.venues.map(\.usdtPremiumPercent) == [decimal("0.3"), decimal("0.47"), nil, nil])
        #expect(row.venues[2].lastConverted == decimal("58412.07") * decimal("1371.55"))
        #expect(row.venues[3].volumeConverted == decimal("1191808091631.43106337044"))
        #expect(row.volume == decimal("420886524117.95229"))
        #expect(row.premiumPercent == decimal("0.65"))
        #expect(row.flags == [])
        #expect(board.tether.map(\.exchange) == ["bithumb", "upbit"])
        #expect(board.tether.map(\.premiumPercent) == [decimal("0.32"), decimal("0.18")])
        #expect(board.tetherPremiumPercent == decimal("0.25"))
    }

    @Test("a coin listed only in Korea or only abroad has no row; USDT/KRW has its row against USD venues")
    func listedOnBothSides() {
        let quotes =
            Self.btc + [
                Self.quote("bithumb", "ONLYKR", "KRW", "10"), Self.quote("binance", "ONLYGLOBAL", "USDT", "1"),
                Self.quote("binance", "ETH", "BTC", "0.04"),
            ]
        #expect(PremiumBoard(currency: "KRW", quotes: quotes, fx: Self.fx).rows.map(\.base) == ["BTC"])
        let withUSDT = quotes + [Self.quote("coinbase", "USDT", "USD", "1.0001")]
        let board = PremiumBoard(currency: "KRW", quotes: withUSDT, fx: Self.fx)
        #expect(board.rows.map(\.base) == ["BTC", "USDT"])
        // USDT's reference is one US dollar, as the tether line's: 1374 / 1371.55 − 1 = 0.1786…%,
        // the tether line's 0.18 to the cent; coinbase deviates 1.0001 − 1 = 0.01 %; USDT over
        // itself on the USDT basis is 0.
        #expect(board.rows[1].venues.map(\.premiumPercent) == [decimal("0.32"), decimal("0.18"), decimal("0.01")])
        #expect(board.rows[1].venues.compactMap(\.premiumPercent).prefix(2) == board.tether.map(\.premiumPercent)[...])
        #expect(board.rows[1].venues.map(\.usdtPremiumPercent) == [0, 0, nil])
        #expect(board.rows[1].reference?.method == "one US dollar (USDT = USD)")
    }

    @Test("a venue quoting a coin in USDT and USD counts once, in USDT")
    func oneMarketPerVenue() throws {
        let quotes = Self.btc + [Self.quote("coinbase", "BTC", "USDT", "58400")]
        let row = try #require(PremiumBoard(currency: "KRW", quotes: quotes, fx: Self.fx).rows.first)
        #expect(row.venues.filter { $0.exchange == "coinbase" }.map(\.market.quote) == ["USDT"])
        // The median of 58412.07 and 58400.
        #expect(row.reference?.dollars == decimal("58406.035"))
    }

    @Test("another asset under the same ticker is an outlier: flagged and left out of the reference")
    func outlier() throws {
        let quotes = [
            Self.quote("bithumb", "ABC", "KRW", "1000"), Self.quote("binance", "ABC", "USDT", "0.7"),
            Self.quote("coinbase", "ABC", "USD", "5.0"), Self.quote("upbit", "USDT", "KRW", "1374"),
            Self.quote("upbit", "ABC", "KRW", "1000"),
        ]
        let row = try #require(PremiumBoard(currency: "KRW", quotes: quotes, fx: Self.fx).rows.first)
        #expect(row.flags == [.priceMismatch])
        #expect(row.venues.map(\.isOutlier) == [false, false, false, true])
        #expect(row.reference?.exchanges == ["binance"])
        #expect(row.reference?.converted == decimal("960.085"))
        #expect(row.venues.map(\.premiumPercent) == [4.16, 4.16, 0, 614.29].map { decimal("\($0)") })
        #expect(row.venues.map(\.usdtPremiumPercent) == [nil, decimal("3.97"), nil, nil])
    }

    @Test("when every global price is an outlier there is no reference and no premium")
    func noReference() throws {
        let quotes = [
            Self.quote("bithumb", "XYZ", "KRW", "1000"), Self.quote("upbit", "XYZ", "KRW", "1000"),
            Self.quote("binance", "XYZ", "USDT", "100"),
        ]
        let row = try #require(PremiumBoard(currency: "KRW", quotes: quotes, fx: Self.fx).rows.first)
        #expect(row.flags == [.priceMismatch, .noReference])
        #expect(row.reference == nil)
        #expect(row.venues.allSatisfy { $0.premiumPercent == nil && $0.usdtPremiumPercent == nil })
        #expect(row.premiumPercent == nil)
    }

    @Test("orders: premium (highest first, none last), volume, symbol")
    func orders() {
        let quotes =
            Self.btc + [
                Self.quote("bithumb", "AAA", "KRW", "1420", quoteVolume: "5"),
                Self.quote("binance", "AAA", "USDT", "1"),
                Self.quote("bithumb", "ZZZ", "KRW", "1300", quoteVolume: "900"),
                Self.quote("binance", "ZZZ", "USDT", "1"),
                Self.quote("bithumb", "XYZ", "KRW", "1000"), Self.quote("upbit", "XYZ", "KRW", "1000"),
                Self.quote("binance", "XYZ", "USDT", "100"),
            ]
        let board = PremiumBoard(currency: "KRW", quotes: quotes, fx: Self.fx)
        #expect(board.rows(in: .symbol).map(\.base) == ["AAA", "BTC", "XYZ", "ZZZ"])
        #expect(board.rows(in: .premium).map(\.base) == ["AAA", "BTC", "ZZZ", "XYZ"])
        #expect(board.rows(in: .volume).map(\.base) == ["BTC", "ZZZ", "AAA", "XYZ"])
    }
}
