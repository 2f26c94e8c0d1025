import AggCore
import AggTestKit
import FoundationEssentials
import Testing

/// Book walks, fees and routes, each against values computed by hand.
@Suite("Arbitrage routes")
struct ArbitrageRouteTests {
    static func levels(_ pairs: [(String, String)]) -> [BookLevel] {
        pairs.map { BookLevel(price: decimal($0.0), amount: decimal($0.1)) }
    }

    static func asks(_ pairs: [(String, String)]) -> BookSide { BookSide(levels(pairs), kind: .asks) }
    static func bids(_ pairs: [(String, String)]) -> BookSide { BookSide(levels(pairs), kind: .bids) }

    // MARK: Walks

    @Test func aValueEndingOnALevelBoundaryFillsThatLevelExactly() {
        let fill = Self.asks([("100", "1"), ("200", "2")]).fill(value: 100)
        #expect(fill == BookFill(amount: 1, value: 100, best: 100, complete: true))
        #expect(fill.averagePrice == 100)
        #expect(fill.slippagePercent == 0)
    }

    @Test func aPartialLastLevelBuysWhatTheRestPays() {
        // 100 buys the first coin; the other 50 buy 50 / 200 = 0.25 on the second level.
        let fill = Self.asks([("100", "1"), ("200", "2")]).fill(value: 150)
        #expect(fill == BookFill(amount: decimal("1.25"), value: 150, best: 100, complete: true))
        #expect(fill.averagePrice == 120)
        #expect(fill.slippagePercent == 20)
    }

    @Test func aBookThatCannotFillSaysHowMuchItCan() {
        let fill = Self.asks([("100", "1"), ("200", "2")]).fill(value: 1000)
        #expect(fill == BookFill(amount: 3, value: 500, best: 100, complete: false))
        let sale = Self.bids([("0.12", "0.5"), ("0.115", "10")]).fill(amount: 20)
        #expect(
            sale == BookFill(amount: decimal("10.5"), value: decimal("1.21"), best: decimal("0.12"), complete: false))
    }

    @Test func levelsWithAZeroOrNegativePriceOrAmountCostOnlyThemselves() {
        let side = Self.asks([("100", "0"), ("-1", "2"), ("101", "1"), ("0", "5"), ("102", "-3")])
        #expect(side.levels == Self.levels([("101", "1")]))
        #expect(side.skipped == 4)
        #expect(!side.reordered)
    }

    @Test func unsortedLevelsAreSortedBestFirstAndSaySo() {
        let asks = Self.asks([("101", "1"), ("100", "2"), ("102", "1")])
        #expect(asks.levels == Self.levels([("100", "2"), ("101", "1"), ("102", "1")]))
        #expect(asks.reordered)
        let bids = Self.bids([("99", "1"), ("100", "2")])
        #expect(bids.levels == Self.levels([("100", "2"), ("99", "1")]))
        #expect(bids.reordered)
        #expect(!Self.bids([("100", "2"), ("99", "1")]).reordered)
    }

    @Test func aCrossedBookIsFlagged() {
        #expect(BookSide.isCrossed(asks: Self.asks([("99", "1")]), bids: Self.bids([("100", "1")])))
        #expect(!BookSide.isCrossed(asks: Self.asks([("100", "1")]), bids: Self.bids([("100", "1")])))
        #expect(!BookSide.isCrossed(asks: Self.asks([]), bids: Self.bids([("100", "1")])))
    }

    // MARK: Fees

    @Test func aPercentageWithdrawalFeeIsClampedByItsMinimumAndMaximum() {
        let fee = WithdrawalFee.percentage(
            rate: decimal("0.001"), minimum: decimal("0.0005"), maximum: decimal("0.002"))
        #expect(fee.fee(for: decimal("0.1")) == decimal("0.0005"))
        #expect(fee.fee(for: 1) == decimal("0.001"))
        #expect(fee.fee(for: 5) == decimal("0.002"))
        #expect(fee.arriving(from: 5) == decimal("4.998"))
        #expect(fee.arriving(from: decimal("0.0004")) == 0)
        let unbounded = WithdrawalFee.percentage(rate: decimal("0.001"), minimum: 0, maximum: nil)
        #expect(unbounded.fee(for: 1000) == 1)
        #expect(WithdrawalFee.fixed(decimal("0.0008")).fee(for: 1000) == decimal("0.0008"))
    }

    // MARK: Routes

    /// KRW asks, USD bids at 1,000 KRW a dollar, 0.05 % and 0.1 % taker fees, 0.01 coin to
    /// withdraw.
    static let twoCurrencies = ArbitrageInputs(
        asks: asks([("100", "1"), ("125", "2")]), bids: bids([("0.12", "0.5"), ("0.115", "10")]),
        buyFee: TakerFee(rate: decimal("0.0005")), sellFee: TakerFee(rate: decimal("0.001")),
        withdrawal: .fixed(decimal("0.01")), rate: 1000)

    @Test func aRouteAtANotionalCountsEveryFeeAndTheRate() {
        let route = Self.twoCurrencies.route(notional: 150)
        // Buy: 1 at 100, 0.4 at 125; fee 150 * 0.0005.
        #expect(route.buy == BookFill(amount: decimal("1.4"), value: 150, best: 100, complete: true))
        #expect(route.buyFee == decimal("0.075"))
        #expect(route.cost == decimal("150.075"))
        // Transfer: 1.4 less 0.01.
        #expect(route.withdrawn == decimal("1.4"))
        #expect(route.transferFee == decimal("0.01"))
        // Sell 1.39: 0.5 at 0.12 and 0.89 at 0.115 = 0.16235 USD; fee 0.00016235.
        #expect(
            route.sell
                == BookFill(amount: decimal("1.39"), value: decimal("0.16235"), best: decimal("0.12"), complete: true))
        #expect(route.sellFee == decimal("0.00016235"))
        #expect(route.received == decimal("162.18765"))
        #expect(route.net == decimal("12.11265"))
        // 12.11265 / 150.075 * 100 = 8.07106446776611694152923538230884557721...
        let percent = route.netPercent ?? 0
        #expect(abs(percent - decimal("8.071064467766116941529235382308845577")) < decimal("1e-30"))
        #expect(!route.depthLimited)
        #expect(route.notional == 150)
    }

    @Test func aFeeTakenInTheCoinLeavesLessToWithdraw() {
        let inputs = ArbitrageInputs(
            asks: Self.asks([("100", "10")]), bids: Self.bids([("0.11", "100")]),
            buyFee: TakerFee(rate: decimal("0.01"), buyCharge: .coin), sellFee: TakerFee(rate: 0),
            withdrawal: .fixed(0), rate: 1000)
        let route = inputs.route(notional: 100)
        #expect(route.buyFee == decimal("0.01"))
        #expect(route.cost == 100)
        #expect(route.withdrawn == decimal("0.99"))
        #expect(route.received == decimal("108.9"))
        #expect(route.net == decimal("8.9"))
    }

    @Test func aThinSellingBookLimitsTheRouteToWhatItCanTake() {
        // The bids take 3 coins: 3.5 bought, 0.5 withdrawal fee, 3 sold.
        let inputs = ArbitrageInputs(
            asks: Self.asks([("100", "10")]), bids: Self.bids([("0.11", "3")]), buyFee: TakerFee(rate: 0),
            sellFee: TakerFee(rate: 0), withdrawal: .fixed(decimal("0.5")), rate: 1000)
        let route = inputs.route(notional: 1000)
        #expect(route.buy == BookFill(amount: decimal("3.5"), value: 350, best: 100, complete: true))
        #expect(route.sell == BookFill(amount: 3, value: decimal("0.33"), best: decimal("0.11"), complete: true))
        #expect(route.net == -20)
        #expect(route.depthLimited)
        #expect(route.notional == 1000)
    }

    @Test func aNotionalBuyingANonTerminatingAmountIsNotDepthLimited() {
        // 100 / 3 is 33.33...: bought back at 3 it comes to 99.99... (38 digits), not a thin book.
        let inputs = ArbitrageInputs(
            asks: Self.asks([("3", "100")]), bids: Self.bids([("3", "100")]), buyFee: TakerFee(rate: 0),
            sellFee: TakerFee(rate: 0), withdrawal: .fixed(0), rate: 1)
        let route = inputs.route(notional: 100)
        #expect(!route.depthLimited)
        #expect(route.buy.value < 100)
    }

    // MARK: Break-even

    static func oneLevel(
        asks: [(String, String)], bids: [(String, String)], withdrawal: WithdrawalFee, sellFee: String = "0"
    ) -> ArbitrageInputs {
        ArbitrageInputs(
            asks: Self.asks(asks), bids: Self.bids(bids), buyFee: TakerFee(rate: 0),
            sellFee: TakerFee(rate: decimal(sellFee)), withdrawal: withdrawal, rate: 1000)
    }

    @Test func aFixedWithdrawalFeeBreaksEvenWhereTheGainPaysIt() {
        // net(c) = 110 (c - 0.5) - 100 c = 10 c - 55: zero at 5.5 coins, 550 KRW.
        let inputs = Self.oneLevel(asks: [("100", "10")], bids: [("0.11", "100")], withdrawal: .fixed(decimal("0.5")))
        #expect(inputs.breakEvenNotional() == 550)
        #expect(inputs.route(notional: 550).net == 0)
        #expect(inputs.route(notional: 540).net == -1)
    }

    @Test func theBreakEvenPointCanLieOnADeeperLevel() {
        // Up to 2 coins net is 10 c - 55 (-35 at 2); beyond, 5 c - 45: zero at 9 coins,
        // 200 + 7 * 105 = 935 KRW.
        let inputs = Self.oneLevel(
            asks: [("100", "2"), ("105", "10")], bids: [("0.11", "100")], withdrawal: .fixed(decimal("0.5")))
        #expect(inputs.breakEvenNotional() == 935)
        #expect(inputs.route(notional: 935).net == 0)
    }

    @Test func aPercentageFeeAtItsMinimumBreaksEvenLikeAFixedOne() {
        // 1 % with a minimum of 1 coin: below 100 coins the fee is 1, net = 10 h - 110: 11 coins.
        let inputs = Self.oneLevel(
            asks: [("100", "100")], bids: [("0.11", "1000")],
            withdrawal: .percentage(rate: decimal("0.01"), minimum: 1, maximum: nil))
        #expect(inputs.breakEvenNotional() == 1100)
    }

    @Test func aRouteThatGainsAtAnySizeBreaksEvenAtZeroAndOneThatNeverGainsHasNone() {
        let gains = Self.oneLevel(asks: [("100", "10")], bids: [("0.11", "100")], withdrawal: .fixed(0))
        #expect(gains.breakEvenNotional() == 0)
        // A 10 % sale fee: net = 99 c - 49.5 - 100 c, below zero at every size.
        let loses = Self.oneLevel(
            asks: [("100", "10")], bids: [("0.11", "100")], withdrawal: .fixed(decimal("0.5")), sellFee: "0.1")
        #expect(loses.breakEvenNotional() == nil)
        let empty = Self.oneLevel(asks: [], bids: [("0.11", "100")], withdrawal: .fixed(0))
        #expect(empty.breakEvenNotional() == nil)
    }

    /// The break-even point of random books equals the first size where a fine scan of the
    /// route's net turns non-negative: never later, and not before (the oracle).
    @Test func theBreakEvenPointAgreesWithAScanOfTheRoute() {
        var random = SeededRandom(seed: 23)
        var found = 0
        for _ in 0..<200 {
            let inputs = Self.randomInputs(&random)
            guard let point = inputs.breakEvenNotional() else { continue }
            found += 1
            #expect(inputs.route(notional: point).net >= decimal("-1e-20"), "\(inputs)")
            if point > 0 {
                let before = point * decimal("0.999999")
                #expect(inputs.route(notional: before).net < 0, "\(inputs)")
            }
        }
        #expect(found > 20)
    }

    static func randomInputs(_ random: inout SeededRandom) -> ArbitrageInputs {
        func level(_ base: Int, _ random: inout SeededRandom) -> BookLevel {
            BookLevel(
                price: Decimal(base) + Decimal(Int(random.next() % 500)) / 100,
                amount: Decimal(Int(random.next() % 300) + 1) / 100)
        }
        let asks = (0..<Int(random.next() % 5 + 1)).map { _ in level(100, &random) }
        let bids = (0..<Int(random.next() % 5 + 1)).map { _ in level(104, &random) }
        let withdrawal: WithdrawalFee =
            random.next() % 2 == 0
            ? .fixed(Decimal(Int(random.next() % 50)) / 100)
            : .percentage(
                rate: Decimal(Int(random.next() % 30)) / 1000, minimum: Decimal(Int(random.next() % 20)) / 100,
                maximum: random.next() % 2 == 0 ? nil : Decimal(Int(random.next() % 40) + 20) / 100)
        return ArbitrageInputs(
            asks: BookSide(asks, kind: .asks), bids: BookSide(bids, kind: .bids),
            buyFee: TakerFee(
                rate: Decimal(Int(random.next() % 3)) / 1000, buyCharge: random.next() % 2 == 0 ? .coin : .quoteCurrency
            ),
            sellFee: TakerFee(rate: Decimal(Int(random.next() % 3)) / 1000), withdrawal: withdrawal, rate: 1)
    }
}

@Suite("Fee schedules")
struct FeeScheduleTests {
    @Test func aMarketTakesItsQuoteCurrencysRateOrTheDefault() {
        let schedule = FeeSchedule(
            defaultTaker: decimal("0.0025"), takerByQuote: ["KRW": decimal("0.0005")], source: "upbit.com",
            asOf: "2026-09-23")
        #expect(schedule.taker(quotedIn: "KRW") == TakerFee(rate: decimal("0.0005")))
        #expect(schedule.taker(quotedIn: "BTC") == TakerFee(rate: decimal("0.0025")))
        let coin = FeeSchedule(
            defaultTaker: decimal("0.001"), buyCharge: .coin, source: "binance.com", asOf: "2026-07-26")
        #expect(coin.taker(quotedIn: "USDT") == TakerFee(rate: decimal("0.001"), buyCharge: .coin))
    }
}

extension FeeScheduleTests {
    @Test func basisPointsAreExactRates() {
        let schedule = FeeSchedule(takerBasisPoints: 25, byQuote: ["KRW": 5], source: "upbit.com", asOf: "2026-09-23")
        #expect(schedule.defaultTaker == decimal("0.0025"))
        #expect(schedule.takerByQuote == ["KRW": decimal("0.0005")])
        #expect(FeeSchedule(takerBasisPoints: 60, source: "", asOf: "").defaultTaker == decimal("0.006"))
    }
}
