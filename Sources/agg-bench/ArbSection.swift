import AggCore
import AggTestKit
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Section 8: issue 23's routes. The arithmetic alone: 30 coins × 9 venues, each route walked at
/// 10M on 30-level books with both taker fees, a percentage withdrawal fee and the FX rate, and
/// its break-even solved (target: 5 ms of CPU for all 270). Then the whole process of `agg arb
/// BTC --from binance --to upbit --notional 10M` against `agg quote BTC` on the same two venues,
/// on the loopback fixtures (target: at most 1.5×).
enum ArbSection {
    /// A 30-level side around `price`, one level a tick (0.01 %) further from the best.
    static func side(_ kind: BookSide.Kind, price: Decimal, seed: Int) -> BookSide {
        let levels = (0..<30).map { index -> BookLevel in
            let step = price * Decimal(index + 1) / 10_000
            let amount = Decimal(seed % 7 + index + 1) / 10
            return BookLevel(price: kind == .asks ? price + step : price - step, amount: amount)
        }
        return BookSide(levels, kind: kind)
    }

    /// Every route of the board's size: 30 coins bought on 9 venues' asks, sold on a Korean bid.
    static func routes() -> [ArbitrageInputs] {
        var inputs: [ArbitrageInputs] = []
        for coin in 0..<30 {
            let dollars = Decimal(100 + coin * 37)
            for venue in 0..<9 {
                inputs.append(
                    ArbitrageInputs(
                        asks: side(.asks, price: dollars, seed: coin + venue),
                        bids: side(.bids, price: dollars * 1_400, seed: coin * venue),
                        buyFee: TakerFee(
                            rate: Decimal(10) / 10_000, buyCharge: venue % 2 == 0 ? .coin : .quoteCurrency),
                        sellFee: TakerFee(rate: Decimal(5) / 10_000),
                        withdrawal: .percentage(rate: Decimal(1) / 1_000, minimum: Decimal(1) / 100, maximum: 1),
                        rate: Decimal(1) / 1_330))
            }
        }
        return inputs
    }

    static func run(_ bench: Bench) throws {
        let inputs = routes()
        let notional = Decimal(10_000_000) / 1_330
        var walks: [Double] = []
        var breakEvens: [Double] = []
        var nets: Decimal = 0
        for _ in 0..<bench.runs {
            walks.append(timed { for route in inputs { nets += route.route(notional: notional).net } }.cpu)
            breakEvens.append(timed { for route in inputs { _ = route.breakEvenNotional() } }.cpu)
        }
        print(
            "\(BenchSection.arb.rawValue). agg arb: routes and break-evens; the whole process against agg quote on the same two venues"
        )
        line(
            "   270 routes: walk and fees",
            String(format: "%6.2f ms CPU (target 5 ms), median of %d", median(walks) * 1000, bench.runs))
        line("   270 break-evens", String(format: "%6.2f ms CPU", median(breakEvens) * 1000))
        let board = boardAtNotional(runs: bench.runs)
        line(
            "   board at 10M --net: 30 coins x 9 venues",
            String(format: "%6.2f ms CPU, %d cells from 1,200 routes (target 5 ms)", board.cpu * 1000, board.routes))

        let server = try FixtureServer()
        var environment = server.environment
        environment["AGG_HOME"] = NSTemporaryDirectory() + "agg-bench-arb-\(getpid())"
        environment["PATH"] = "/usr/bin:/bin"
        var arbWalls: [Double] = []
        var quoteWalls: [Double] = []
        for _ in 0..<min(bench.runs, 11) {
            arbWalls.append(
                spawn(
                    bench.binary,
                    ["arb", "BTC", "--from", "binance", "--to", "upbit", "--notional", "10M", "-f", "json"],
                    environment: environment, measureMemory: false
                ).wall)
            quoteWalls.append(
                spawn(
                    bench.binary, ["quote", "BTC", "--exchange", "binance,upbit", "-f", "json"],
                    environment: environment, measureMemory: false
                ).wall)
        }
        line(
            "   agg arb vs agg quote (binance, upbit)",
            String(
                format: "%6.0f ms vs %6.0f ms = %.2f× (target 1.5×)", median(arbWalls) * 1000,
                median(quoteWalls) * 1000, median(arbWalls) / median(quoteWalls)))
        if nets == 0 { print("   (no route priced)") }
    }
}
