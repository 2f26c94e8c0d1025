import AggCore
import AggTestKit
import FoundationEssentials
import Testing

@testable import AggServices

/// The premium board's lean pricing (`ArbPlanner.pricedRoute(asks:bids:)`, from sides made
/// walkable once by `walkableSides`) against the whole report: the same route wherever
/// `report(breakEven: false)` has a route and a percent, `nil` wherever it has not.
@Suite("agg arb planner: the board's lean route")
struct ArbPlannerPricedRouteTests {
    typealias Base = ArbPlannerTests

    /// Planners of every shape the report knows: priced, depth-limited, a fee in the coin, a
    /// percentage fee clamped either way, several networks, FX, and each way of having no route.
    static func planners() -> [(String, ArbPlanner)] {
        let percentage = WithdrawalFee.percentage(
            rate: decimal("0.01"), minimum: decimal("0.05"), maximum: decimal("0.1"))
        var cases: [(String, ArbPlanner)] = [
            ("boundary", Base.planner(notional: "100")),
            ("partial", Base.planner(notional: "205", buyFee: "0.001", sellFee: "0.0005")),
            ("thirds", Base.planner(notional: "200", asks: [("100", "1"), ("300", "2")], buyFee: "0.0005")),
            ("depth", Base.planner(notional: "1000")),
            ("coin fee", Base.planner(notional: "150", buyFee: "0.003", buyCharge: .coin)),
            (
                "percentage, minimum",
                Base.planner(
                    notional: "100", asks: [("100", "100")], bids: [("110", "100")],
                    source: [Base.status("bithumb", fee: percentage)])
            ),
            (
                "percentage, maximum",
                Base.planner(
                    notional: "2000", asks: [("100", "100")], bids: [("110", "100")],
                    source: [Base.status("bithumb", fee: percentage)])
            ),
            (
                "networks",
                Base.planner(
                    notional: "100",
                    source: [
                        Base.status("bithumb", network: "ERC20", fee: .fixed(decimal("0.2"))),
                        Base.status("bithumb", network: "BTC", fee: .fixed(decimal("0.1"))),
                        Base.status("bithumb", network: "TRC20", fee: .fixed(decimal("0.01"))),
                    ],
                    destination: [
                        Base.status("upbit", network: "eth"), Base.status("upbit", network: nil),
                        Base.status("upbit", network: "TRX", deposit: .closed),
                    ])
            ),
            ("crossed", Base.planner(notional: "100", buyBids: [("101", "1")])),
            ("no bids", Base.planner(notional: "100", bids: [("0", "1")])),
            (
                "closed",
                Base.planner(
                    notional: "100", source: [Base.status("bithumb", withdraw: .closed, fee: .fixed(decimal("0.1")))])
            ),
            ("unknown fee", Base.planner(notional: "100", source: [Base.status("bithumb", fee: nil)])),
            (
                "no shared network",
                Base.planner(notional: "100", destination: [Base.status("upbit", network: "SOL")])
            ),
        ]
        var noTaker = Base.planner(notional: "100")
        noTaker.sell.fee = nil
        cases.append(("no taker fee", noTaker))
        var fx = Base.planner(notional: "150000", source: [Base.status("binance", fee: .fixed(decimal("0.1")))])
        fx.buy = ArbLeg(
            exchange: "binance", market: Market(base: "BTC", quote: "USDT"), asOf: Base.time, fee: Base.fee("0.001"))
        fx.buyBook = Base.book("binance", asks: [("60", "1"), ("80", "5")], bids: [("59", "1")])
        fx.sellBook = Base.book("upbit", asks: [("95000", "1")], bids: [("90000", "10")])
        fx.destination = []
        fx.values = [.fx("KRW"): RateValue(value: 1500, source: "testfx", asOf: Base.time)]
        cases.append(("fx", fx))
        var noFX = fx
        noFX.values = [:]
        cases.append(("fx missing", noFX))
        return cases
    }

    @Test("the lean route is the report's route wherever the report has a percent, nil elsewhere")
    func leanRouteIsTheReportsRoute() throws {
        var priced = 0
        for (name, planner) in Self.planners() {
            let report = planner.report(breakEven: false)
            let asks = ArbPlanner.walkableSides(planner.buyBook).asks
            let bids = ArbPlanner.walkableSides(planner.sellBook).bids
            let lean = asks.flatMap { asks in bids.flatMap { planner.pricedRoute(asks: asks, bids: $0) } }
            let expected = report.netPercent == nil ? nil : report.route
            #expect(lean == expected, "\(name)")
            if lean != nil { priced += 1 }
        }
        #expect(priced == 9)
    }

    @Test("walkable sides: nil for a failed or crossed book, one nil for an empty side")
    func walkableSides() {
        let crossed = ArbPlanner.walkableSides(Base.book("x", asks: [("100", "1")], bids: [("101", "1")]))
        #expect(crossed.asks == nil && crossed.bids == nil)
        let failed = ArbPlanner.walkableSides(.failure(.usage("no book")))
        #expect(failed.asks == nil && failed.bids == nil)
        let empty = ArbPlanner.walkableSides(Base.book("x", asks: [("100", "1")], bids: [("99", "0")]))
        #expect(empty.asks == BookSide(Base.levels([("100", "1")]), kind: .asks))
        #expect(empty.bids == nil)
    }
}
