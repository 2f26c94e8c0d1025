import AggCore
import AggTestKit
import FoundationEssentials
import Testing

@testable import AggServices

/// `agg arb`'s route priced from fetched books, fees and transfer status, each case against
/// values computed by hand. Both venues are KRW (no FX) unless a test says otherwise.
@Suite("agg arb planner")
struct ArbPlannerTests {
    static let time = Timestamp(millisecondsSince1970: 1_764_460_800_000)

    static func levels(_ pairs: [(String, String)]) -> [BookLevel] {
        pairs.map { BookLevel(price: decimal($0.0), amount: decimal($0.1)) }
    }

    static func book(_ venue: String, asks: [(String, String)], bids: [(String, String)]) -> Result<OrderBook, AggError>
    {
        .success(
            OrderBook(
                exchange: venue, market: Market(base: "BTC", quote: "KRW"), timestamp: time, bids: levels(bids),
                asks: levels(asks)))
    }

    static func fee(_ rate: String, _ charge: TakerFee.Charge = .quoteCurrency) -> TakerFeeLookup.Choice {
        TakerFeeLookup.Choice(fee: TakerFee(rate: decimal(rate), buyCharge: charge), source: .configuration)
    }

    static func status(
        _ venue: String, network: String? = "BTC", deposit: TransferState = .open, withdraw: TransferState = .open,
        fee: WithdrawalFee? = nil
    ) -> TransferStatus {
        TransferStatus(
            exchange: venue, coin: "BTC", network: network, deposit: deposit, withdraw: withdraw, withdrawal: fee,
            asOf: time)
    }

    /// Buys on bithumb's asks (100 for 1, then 105 for 2), sells on upbit's bids (110 for 10),
    /// withdraws at a fixed 0.1 BTC.
    static func planner(
        notional: String, asks: [(String, String)] = [("100", "1"), ("105", "2")],
        bids: [(String, String)] = [("110", "10")], buyFee: String = "0", buyCharge: TakerFee.Charge = .quoteCurrency,
        sellFee: String = "0", source: [TransferStatus]? = nil, destination: [TransferStatus]? = nil,
        buyBids: [(String, String)] = [("99", "5")]
    ) -> ArbPlanner {
        ArbPlanner(
            coin: "BTC", notional: decimal(notional), currency: "KRW",
            buy: ArbLeg(
                exchange: "bithumb", market: Market(base: "BTC", quote: "KRW"), asOf: time,
                fee: fee(buyFee, buyCharge)),
            sell: ArbLeg(exchange: "upbit", market: Market(base: "BTC", quote: "KRW"), asOf: time, fee: fee(sellFee)),
            buyBook: book("bithumb", asks: asks, bids: buyBids),
            sellBook: book("upbit", asks: [("120", "5")], bids: bids),
            source: source ?? [status("bithumb", fee: .fixed(decimal("0.1")))],
            destination: destination ?? [status("upbit")])
    }

    @Test("a notional ending on a level boundary fills that level exactly, and the break-even is solved on the next")
    func levelBoundary() throws {
        // Buy 1 at 100; 0.9 arrives and sells at 110 = 99: net -1 on a cost of 100.
        // net(c) = 110 (c - 0.1) - (100 + 105 (c - 1)) = 5c - 6 on the second level: zero at
        // c = 1.2, which costs 100 + 105 * 0.2 = 121.
        let report = Self.planner(notional: "100").report()
        let route = try #require(report.route)
        #expect(route.buy == BookFill(amount: 1, value: 100, best: 100, complete: true))
        #expect(route.sell == BookFill(amount: decimal("0.9"), value: 99, best: 110, complete: true))
        #expect(report.net == -1)
        #expect(report.netPercent == -1)
        #expect(report.breakEvenNotional == 121)
        #expect(report.transfer?.network == "BTC")
        #expect(report.problems.isEmpty)
        #expect(report.warnings.isEmpty)
        #expect(!report.failed)
    }

    @Test("a partial last level buys what the rest pays, both taker fees counted")
    func partialLevel() throws {
        // 205 buys 1 at 100 and 1 at 105 (avg 102.5); fee 0.205. 1.9 arrives: 209, fee 0.1045.
        // net = 208.8955 - 205.205 = 3.6905; 3.6905 / 205.205 = 1.798...% -> 1.80.
        let report = Self.planner(notional: "205", buyFee: "0.001", sellFee: "0.0005").report()
        let route = try #require(report.route)
        #expect(route.buy.amount == 2)
        #expect(route.buy.averagePrice == decimal("102.5"))
        #expect(route.buyFee == decimal("0.205"))
        #expect(route.cost == decimal("205.205"))
        #expect(route.sellFee == decimal("0.1045"))
        #expect(report.net == decimal("3.6905"))
        #expect(report.netPercent == decimal("1.8"))
    }

    @Test("books that cannot fill price the route at what they carry and say how much")
    func cannotFill() throws {
        // The asks hold 3 BTC for 310: 2.9 arrives, 319 back, net 9.
        let report = Self.planner(notional: "1000").report()
        let route = try #require(report.route)
        #expect(route.buy == BookFill(amount: 3, value: 310, best: 100, complete: true))
        #expect(route.depthLimited)
        #expect(report.net == 9)
        #expect(
            report.warnings == [
                ArbProblem("depth", "the books fill 310 of 1,000 KRW: the route is priced at that size")
            ])
        #expect(!report.failed)
    }

    @Test("a crossed book is flagged and not used: no net")
    func crossed() {
        let report = Self.planner(notional: "100", buyBids: [("101", "1")]).report()
        #expect(report.route == nil)
        #expect(report.net == nil)
        #expect(
            report.problems == [
                ArbProblem(
                    "crossedBook", exchange: "bithumb",
                    "the bithumb BTC/KRW book is crossed (best ask 100 below best bid 101): not used")
            ])
        #expect(report.failed)
    }

    @Test("levels with a zero or negative price or amount are skipped, and unsorted levels sorted, each said")
    func skippedAndSorted() throws {
        let skipped = Self.planner(notional: "205", asks: [("100", "1"), ("0", "5"), ("105", "-1"), ("105", "2")])
            .report()
        #expect(skipped.net == 4)
        #expect(
            skipped.warnings == [
                ArbProblem(
                    "levels", exchange: "bithumb",
                    "bithumb BTC/KRW asks: 2 level(s) with a zero or negative price or amount skipped")
            ])
        let sorted = Self.planner(notional: "205", asks: [("105", "2"), ("100", "1")]).report()
        #expect(sorted.net == 4)
        #expect(sorted.route?.buy.averagePrice == decimal("102.5"))
        #expect(
            sorted.warnings == [
                ArbProblem("levels", exchange: "bithumb", "bithumb BTC/KRW asks were not best first: sorted")
            ])
    }

    @Test("a percentage withdrawal fee is clamped by its minimum and its maximum")
    func percentageFee() throws {
        let fee = WithdrawalFee.percentage(rate: decimal("0.01"), minimum: decimal("0.05"), maximum: decimal("0.1"))
        let source = [Self.status("bithumb", fee: fee)]
        // 1 BTC: 1% is 0.01, below the minimum: 0.05; 0.95 * 110 = 104.5, net 4.5.
        let small = Self.planner(notional: "100", asks: [("100", "100")], bids: [("110", "100")], source: source)
            .report()
        #expect(small.route?.transferFee == decimal("0.05"))
        #expect(small.net == decimal("4.5"))
        // 20 BTC: 1% is 0.2, above the maximum: 0.1; 19.9 * 110 = 2189, net 189.
        let large = Self.planner(notional: "2000", asks: [("100", "100")], bids: [("110", "100")], source: source)
            .report()
        #expect(large.route?.transferFee == decimal("0.1"))
        #expect(large.net == 189)
    }

    @Test("a buy fee taken in the coin leaves less to withdraw; one taken in the currency costs more")
    func feeInCoinOrCurrency() throws {
        let source = [Self.status("bithumb", fee: .fixed(0))]
        // In the coin: 1 BTC for 100, 0.01 BTC fee, 0.99 sold at 110 = 108.9, net 8.9.
        let coin = Self.planner(
            notional: "100", asks: [("100", "10")], buyFee: "0.01", buyCharge: .coin, source: source
        ).report()
        #expect(coin.route?.buyFee == decimal("0.01"))
        #expect(coin.route?.cost == 100)
        #expect(coin.net == decimal("8.9"))
        // In KRW: 1 KRW on top, 1 BTC sold at 110: net 9.
        let currency = Self.planner(notional: "100", asks: [("100", "10")], buyFee: "0.01", source: source).report()
        #expect(currency.route?.buyFee == 1)
        #expect(currency.route?.cost == 101)
        #expect(currency.net == 9)
    }

    @Test("a transfer closed on one side leaves no route, saying why")
    func closedOneSide() {
        let withdrawals = Self.planner(
            notional: "100", source: [Self.status("bithumb", withdraw: .closed, fee: .fixed(decimal("0.1")))]
        ).report()
        #expect(withdrawals.problems == [ArbProblem("noRoute", "no route for BTC: BTC: withdrawals closed on bithumb")])
        #expect(withdrawals.route == nil)
        #expect(withdrawals.failed)
        let deposits = Self.planner(notional: "100", destination: [Self.status("upbit", deposit: .closed)]).report()
        #expect(deposits.problems == [ArbProblem("noRoute", "no route for BTC: BTC: deposits closed on upbit")])
    }

    @Test("the cheapest open network is chosen; a closed one is passed over; names match across venues")
    func cheapestNetwork() throws {
        let source = [
            Self.status("bithumb", network: "ERC20", fee: .fixed(decimal("0.2"))),
            Self.status("bithumb", network: "BTC", fee: .fixed(decimal("0.1"))),
            Self.status("bithumb", network: "TRC20", fee: .fixed(decimal("0.01"))),
        ]
        let destination = [
            Self.status("upbit", network: "eth"), Self.status("upbit", network: nil),
            Self.status("upbit", network: "TRX", deposit: .closed),
        ]
        let report = Self.planner(notional: "100", source: source, destination: destination).report()
        #expect(report.transfer?.network == "BTC")
        #expect(report.route?.transferFee == decimal("0.1"))
        #expect(TransferNetwork.key("ERC20", coin: "USDT") == "ETH")
        #expect(TransferNetwork.key("bep-20", coin: "USDT") == "BSC")
        #expect(TransferNetwork.key(nil, coin: "BTC") == "BTC")
        #expect(TransferNetwork.key("Arbitrum One", coin: "ETH") == "ARBITRUMONE")
    }

    @Test("an unknown withdrawal fee leaves the net empty, saying so; the buy is still shown")
    func unknownFee() throws {
        let report = Self.planner(notional: "100", source: [Self.status("bithumb", fee: nil)]).report()
        #expect(report.net == nil)
        #expect(report.buyFill == BookFill(amount: 1, value: 100, best: 100, complete: true))
        #expect(
            report.problems == [
                ArbProblem(
                    "unknownFee", exchange: "bithumb",
                    "the withdrawal fee of BTC on bithumb (BTC) is unknown: no net without it")
            ])
        #expect(report.transfer?.network == "BTC")
    }

    @Test("a side without status is unknown and usable; the route is priced in the notional's currency")
    func unknownSideAndFX() throws {
        // Buy BTC/USDT at 60 for 1; sell BTC/KRW at 90,000; USD->KRW 1,500. 150,000 KRW is
        // 100 USDT: 1 at 60, 1 at 40/... levels [(60, 1), (80, 5)] -> 1 + 40/80 = 1.5 BTC.
        // Fee 0.1 BTC: 1.4 arrives, 126,000 KRW = 84 USDT; net -16 USDT = -24,000 KRW.
        var planner = Self.planner(notional: "150000", source: [Self.status("binance", fee: .fixed(decimal("0.1")))])
        planner.buy = ArbLeg(
            exchange: "binance", market: Market(base: "BTC", quote: "USDT"), asOf: Self.time, fee: Self.fee("0"))
        planner.buyBook = Self.book("binance", asks: [("60", "1"), ("80", "5")], bids: [("59", "1")])
        planner.sellBook = Self.book("upbit", asks: [("95000", "1")], bids: [("90000", "10")])
        planner.destination = []
        planner.values = [.fx("KRW"): RateValue(value: 1500, source: "testfx", asOf: Self.time)]
        let report = planner.report()
        #expect(abs((report.rate ?? 0) * 1500 - 1) < decimal("1e-35"))
        let route = try #require(report.route)
        #expect(route.buy.amount == decimal("1.5"))
        #expect(report.transfer?.deposit == .unknown)
        #expect(report.net == -24000)
    }
}
