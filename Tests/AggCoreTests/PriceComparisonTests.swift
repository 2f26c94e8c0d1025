import AggCore
import AggTestKit
import Foundation
import Testing

private let asOf = Timestamp(millisecondsSince1970: 1_764_457_200_000)
private let usdKRW = RateValue(value: decimal("1442.35"), source: "exchangerate", asOf: asOf)
private let usdtKRW = RateValue(
    value: 1457, source: "upbit USDT/KRW", asOf: Timestamp(millisecondsSince1970: 1_764_457_199_912))

/// The four venues at the fixtures' moment.
private let prices = [
    PriceComparison.Price(exchange: "binance", market: Market(base: "BTC", quote: "USDT"), last: decimal("97012.35")),
    PriceComparison.Price(exchange: "bithumb", market: Market(base: "BTC", quote: "KRW"), last: 80_630_000),
    PriceComparison.Price(exchange: "coinbase", market: Market(base: "BTC", quote: "USD"), last: decimal("97040.01")),
    PriceComparison.Price(exchange: "upbit", market: Market(base: "BTC", quote: "KRW"), last: 141_350_000),
]

@Suite("Conversion")
struct ConversionTests {
    @Test(
        "each pair of currencies needs exactly the inputs that do not cancel",
        arguments: [
            ("KRW", "KRW", StablecoinValuation.assume, [RateInput](), [RateInput]()),
            ("USD", "KRW", .assume, [.fx("KRW")], []),
            ("USDT", "KRW", .assume, [.fx("KRW")], []),
            ("USDT", "KRW", .market, [.usdtInKRW], []),
            ("USDC", "KRW", .market, [.fx("KRW")], []),
            ("KRW", "USD", .assume, [], [.fx("KRW")]),
            ("USDT", "USD", .assume, [], []),
            ("USDT", "USD", .market, [.usdtInKRW], [.fx("KRW")]),
            ("EUR", "KRW", .assume, [.fx("KRW")], [.fx("EUR")]),
            ("KRW", "EUR", .market, [.fx("EUR")], [.fx("KRW")]),
            ("USD", "USD", .market, [], []),
        ])
    func plan(from: String, to: String, stablecoins: StablecoinValuation, above: [RateInput], below: [RateInput]) {
        let conversion = Conversion(from: from, to: to, stablecoins: stablecoins)
        #expect(conversion.numerator == above)
        #expect(conversion.denominator == below)
        #expect(conversion.isIdentity == (above.isEmpty && below.isEmpty))
    }

    @Test(
        "multiplications are exact; quotients are rounded to 12 decimals",
        arguments: [
            ("USDT", "KRW", StablecoinValuation.assume, "97012.35", "139925763.0225"),
            ("USD", "KRW", .assume, "97040.01", "139965658.4235"),
            ("USDT", "KRW", .market, "97012.35", "141346993.95"),
            ("KRW", "KRW", .assume, "141350000", "141350000"),
            ("KRW", "USD", .assume, "141350000", "97999.792006101154"),
            ("KRW", "USD", .assume, "1", "0.000693312996"),
            ("USDT", "USD", .market, "97012.35", "97997.707872569071"),
            ("USDT", "USD", .assume, "97012.35", "97012.35"),
        ])
    func values(from: String, to: String, stablecoins: StablecoinValuation, price: String, expected: String) throws {
        let conversion = Conversion(from: from, to: to, stablecoins: stablecoins)
        let converted = try #require(
            conversion.convert(decimal(price), [.fx("KRW"): usdKRW, .usdtInKRW: usdtKRW]))
        #expect(converted == decimal(expected))
        #expect(converted.description == expected)
    }

    @Test("97012.35 × 1442.35 is 139925763.0225 exactly")
    func exampleProduct() {
        let rate = Conversion(from: "USDT", to: "KRW", stablecoins: .assume).rate([.fx("KRW"): usdKRW])
        #expect(rate == decimal("1442.35"))
        #expect(decimal("97012.35") * decimal("1442.35") == decimal("139925763.0225"))
    }

    @Test("a missing input leaves no rate and names what is missing")
    func missing() {
        let conversion = Conversion(from: "USDT", to: "USD", stablecoins: .market)
        #expect(conversion.rate([.fx("KRW"): usdKRW]) == nil)
        #expect(conversion.missing(in: [.fx("KRW"): usdKRW]) == [.usdtInKRW])
        #expect(conversion.missing(in: [:]) == [.fx("KRW"), .usdtInKRW])
        #expect(RateInput.fx("KRW").description == "USD→KRW")
        #expect(RateInput.usdtInKRW.description == "USDT→KRW")
    }

    @Test("the inputs a whole comparison needs are the union over its quote currencies")
    func inputs() {
        #expect(
            PriceComparison.inputs(currency: "KRW", quoteCurrencies: ["KRW", "USDT", "USD"], stablecoins: .assume)
                == [.fx("KRW")])
        #expect(
            PriceComparison.inputs(currency: "KRW", quoteCurrencies: ["KRW", "USDT"], stablecoins: .market)
                == [.usdtInKRW])
        #expect(PriceComparison.inputs(currency: "KRW", quoteCurrencies: ["KRW"], stablecoins: .assume).isEmpty)
        #expect(
            PriceComparison.inputs(currency: "USD", quoteCurrencies: ["KRW", "USDT"], stablecoins: .market)
                == [.fx("KRW"), .usdtInKRW])
    }
}

@Suite("Price comparison")
struct PriceComparisonTests {
    @Test(
        "the median is the middle value, or the mean of the two middle values",
        arguments: [
            ([String](), nil as String?), (["5"], "5"), (["1", "3"], "2"), (["3", "1", "2"], "2"),
            (["4", "1", "3", "2"], "2.5"), (["1.1", "2.2"], "1.65"),
            (["139925763.0225", "139965658.4235"], "139945710.723"),
        ])
    func median(values: [String], expected: String?) {
        #expect(PriceComparison.median(values.map(decimal)) == expected.map(decimal))
    }

    @Test(
        "the premium is (converted / reference − 1) × 100, rounded half away from zero to 2 decimals",
        arguments: [
            ("141350000", "139945710.723", "1"),
            ("139925763.0225", "139945710.723", "-0.01"),
            ("80630000", "139945710.723", "-42.38"),
            ("100", "100", "0"),
            ("100.005", "100", "0.01"),
            ("99.995", "100", "-0.01"),
            ("100.00499", "100", "0"),
        ])
    func premium(converted: String, reference: String, expected: String) {
        #expect(PriceComparison.premiumPercent(decimal(converted), reference: decimal(reference)) == decimal(expected))
    }

    @Test("in KRW with USDT assumed equal to USD: global venues make the reference")
    func krwAssumed() throws {
        let comparison = PriceComparison(
            currency: "KRW", prices: prices, stablecoins: .assume, values: [.fx("KRW"): usdKRW])
        #expect(
            comparison.rows.map(\.converted)
                == ["139925763.0225", "80630000", "139965658.4235", "141350000"].map(decimal))
        #expect(comparison.rows.map(\.rate) == ["1442.35", "1", "1442.35", "1"].map(decimal))
        #expect(comparison.rows.map(\.premiumPercent) == ["-0.01", "-42.38", "0.01", "1"].map(decimal))
        #expect(comparison.rows.allSatisfy { $0.missing.isEmpty })
        let reference = try #require(comparison.reference)
        #expect(reference.price == decimal("139945710.723"))
        #expect(reference.method == "median of venues not quoted in KRW")
        #expect(reference.exchanges == ["binance", "coinbase"])
        #expect(
            comparison.rateLines == [
                .init(from: "USD", to: "KRW", rate: decimal("1442.35"), source: "exchangerate", asOf: asOf),
                .init(from: "USDT", to: "KRW", rate: decimal("1442.35"), source: "assumed equal to USD", asOf: nil),
            ])
    }

    @Test("in KRW with USDT at a Korean venue's market price")
    func krwMarket() throws {
        let comparison = PriceComparison(
            currency: "KRW", prices: prices, stablecoins: .market, values: [.fx("KRW"): usdKRW, .usdtInKRW: usdtKRW])
        #expect(comparison.rows[0].converted == decimal("141346993.95"))
        #expect(comparison.rows[0].rate == 1457)
        #expect(comparison.reference?.price == decimal("140656326.18675"))
        #expect(comparison.rows.map(\.premiumPercent) == ["0.49", "-42.68", "-0.49", "0.49"].map(decimal))
        #expect(
            comparison.rateLines == [
                .init(from: "USD", to: "KRW", rate: decimal("1442.35"), source: "exchangerate", asOf: asOf),
                .init(from: "USDT", to: "KRW", rate: 1457, source: "upbit USDT/KRW", asOf: usdtKRW.asOf),
            ])
    }

    @Test("in USD: KRW venues are divided by USD→KRW; the reference is the median of venues not in USD")
    func usd() throws {
        let comparison = PriceComparison(
            currency: "USD", prices: prices, stablecoins: .assume, values: [.fx("KRW"): usdKRW])
        #expect(
            comparison.rows.map(\.converted)
                == ["97012.35", "55901.826879744861", "97040.01", "97999.792006101154"].map(decimal))
        #expect(comparison.rows[1].rate == decimal("0.000693312996"))
        #expect(comparison.reference?.price == decimal("97012.35"))
        #expect(comparison.reference?.method == "median of venues not quoted in USD")
        #expect(comparison.rows.map(\.premiumPercent) == ["0", "-42.38", "0.03", "1.02"].map(decimal))
        #expect(
            comparison.rateLines == [
                .init(from: "USD", to: "KRW", rate: decimal("1442.35"), source: "exchangerate", asOf: asOf),
                .init(from: "USDT", to: "USD", rate: 1, source: "assumed equal to USD", asOf: nil),
            ])
    }

    @Test("when every venue is quoted in the target currency, the reference is the median of all")
    func allDomestic() throws {
        let comparison = PriceComparison(
            currency: "KRW", prices: prices.filter { $0.market.quote == "KRW" }, stablecoins: .assume, values: [:])
        #expect(comparison.reference?.price == 110_990_000)
        #expect(comparison.reference?.method == "median of all venues")
        #expect(comparison.rows.map(\.premiumPercent) == ["-27.35", "27.35"].map(decimal))
        #expect(comparison.rateLines.isEmpty)
    }

    @Test("without the FX rate the venues needing it are not converted and say what is missing")
    func missingFX() throws {
        let comparison = PriceComparison(currency: "KRW", prices: prices, stablecoins: .assume, values: [:])
        #expect(comparison.rows.map(\.converted) == [nil, 80_630_000, nil, 141_350_000])
        #expect(comparison.rows[0].missing == [.fx("KRW")])
        #expect(comparison.rows[0].premiumPercent == nil)
        // The venues quoted elsewhere could not be converted: no reference, rather than the KRW
        // venues' median and each KRW venue's premium over itself.
        #expect(comparison.reference == nil)
        #expect(comparison.rows.map(\.premiumPercent) == [nil, nil, nil, nil])
        #expect(comparison.rateLines.isEmpty)
    }

    @Test("a zero rate converts nothing, in either direction, and the row says why")
    func zeroRate() throws {
        let zero = RateValue(value: 0, source: "testfx", asOf: asOf)
        for (from, to) in [("KRW", "USD"), ("USD", "KRW")] {
            let conversion = Conversion(from: from, to: to, stablecoins: .assume)
            #expect(conversion.convert(1, [.fx("KRW"): zero]) == nil)
            #expect(conversion.problems(in: [.fx("KRW"): zero]) == [.notPositive(.fx("KRW"), zero)])
            #expect(conversion.missing(in: [.fx("KRW"): zero]) == [])
        }
        #expect(
            Conversion.Problem.notPositive(.fx("KRW"), zero).description
                == "the USD→KRW rate from testfx is 0: a rate must be above zero")
        #expect(Conversion.Problem.missing(.usdtInKRW).description == "no USDT→KRW rate")
        let comparison = PriceComparison(
            currency: "USD", prices: prices, stablecoins: .assume, values: [.fx("KRW"): zero])
        #expect(comparison.rows.map(\.converted) == [decimal("97012.35"), nil, decimal("97040.01"), nil])
        #expect(comparison.rows[1].problems == [.notPositive(.fx("KRW"), zero)])
        #expect(comparison.rateLines.allSatisfy { $0.rate != 0 })
    }

    @Test("the tether premium: USDT on KRW venues against the USD→KRW FX rate, USDT = USD")
    func tetherPremium() throws {
        let tether = [
            PriceComparison.Price(exchange: "bithumb", market: Market(base: "USDT", quote: "KRW"), last: 1372),
            PriceComparison.Price(exchange: "upbit", market: Market(base: "USDT", quote: "KRW"), last: 1373),
        ]
        let fx = RateValue(value: decimal("1331.529034"), source: "exchangerate", asOf: asOf)
        let comparison = PriceComparison(
            coin: "USDT", currency: "KRW", prices: tether, stablecoins: .assume, values: [.fx("KRW"): fx])
        let reference = try #require(comparison.reference)
        #expect(reference.price == decimal("1331.529034"))
        #expect(reference.method == "the USD→KRW rate (USDT = USD)")
        #expect(reference.exchanges == [])
        // (1372 / 1331.529034 − 1) × 100 = 3.0394…; (1373 / 1331.529034 − 1) × 100 = 3.1145…
        #expect(comparison.rows.map(\.premiumPercent) == [decimal("3.04"), decimal("3.11")])
        #expect(comparison.referenceProblems == [])
        #expect(
            comparison.rateLines == [
                .init(from: "USD", to: "KRW", rate: decimal("1331.529034"), source: "exchangerate", asOf: asOf)
            ])

        // In USD the reference is one dollar and the KRW prices are divided by the rate.
        let inUSD = PriceComparison(
            coin: "USDT", currency: "USD", prices: tether, stablecoins: .assume, values: [.fx("KRW"): fx])
        #expect(inUSD.reference?.price == 1)
        #expect(inUSD.reference?.method == "one US dollar (USDT = USD)")
        #expect(inUSD.rows.map(\.converted) == [decimal("1.030394354886"), decimal("1.031145371179")])
        #expect(inUSD.rows.map(\.premiumPercent) == [decimal("3.04"), decimal("3.11")])

        // Without the rate there is no reference and the comparison says why.
        let noRate = PriceComparison(coin: "USDT", currency: "KRW", prices: tether, stablecoins: .assume, values: [:])
        #expect(noRate.reference == nil)
        #expect(noRate.rows.map(\.premiumPercent) == [nil, nil])
        #expect(noRate.referenceProblems == [.missing(.fx("KRW"))])
        #expect(
            PriceComparison.inputs(coin: "USDT", currency: "KRW", quoteCurrencies: ["KRW"], stablecoins: .assume)
                == [.fx("KRW")])
        #expect(
            PriceComparison.inputs(coin: "BTC", currency: "KRW", quoteCurrencies: ["KRW"], stablecoins: .assume) == [])
    }

    @Test("no prices, no reference")
    func empty() {
        let comparison = PriceComparison(currency: "KRW", prices: [], stablecoins: .assume, values: [:])
        #expect(comparison.reference == nil)
        #expect(comparison.rows.isEmpty)
    }
}
