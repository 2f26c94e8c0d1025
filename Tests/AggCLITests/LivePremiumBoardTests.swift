import AggCore
import Foundation
import Testing

@testable import AggServices

/// The live premium board recomputes only the rows of the coins whose prices changed, and the
/// board it holds is always the one `PremiumBoard(currency:quotes:fx:)` makes of every quote held.
@Suite("Live premium board: row-level recompute")
struct LivePremiumBoardTests {
    static let rate = RateValue(value: 1400, source: "fxsource", asOf: Timestamp(millisecondsSince1970: 0))

    static func quote(_ venue: String, _ base: String, _ quote: String, _ last: Decimal) -> Quote {
        Quote(exchange: venue, market: Market(base: base, quote: quote), last: last, quoteVolume: last * 10)
    }

    /// Two local venues, two global ones, three coins and the tether line.
    static let snapshot: [Quote] = [
        quote("upbit", "BTC", "KRW", 140_000_000), quote("bithumb", "BTC", "KRW", 140_100_000),
        quote("upbit", "ETH", "KRW", 5_000_000), quote("bithumb", "ETH", "KRW", 5_010_000),
        quote("upbit", "XRP", "KRW", 900), quote("upbit", "USDT", "KRW", 1410),
        quote("bithumb", "USDT", "KRW", 1405),
        quote("binance", "BTC", "USDT", 99_000), quote("okx", "BTC", "USDT", 99_100),
        quote("binance", "ETH", "USDT", 3500), quote("okx", "ETH", "USDT", 3510),
        quote("binance", "XRP", "USDT", Decimal(62) / 100), quote("binance", "SOL", "USDT", 150),
    ]

    static func full(_ quotes: [Quote], rate: RateValue = rate) -> PremiumBoard {
        PremiumBoard(currency: "KRW", quotes: quotes, fx: rate)
    }

    @Test("the first board and a new rate make every row")
    func rateMakesEveryRow() {
        var live = LivePremiumBoard(currency: "KRW", quotes: Self.snapshot, rate: Self.rate)
        #expect(live.recomputed == ["BTC", "ETH", "XRP"])
        #expect(live.board == Self.full(Self.snapshot))
        live.set(rate: Self.rate)
        #expect(live.recomputed == [], "the same rate recomputes nothing")
        let other = RateValue(value: 1395, source: "fxsource", asOf: Timestamp(millisecondsSince1970: 1000))
        live.set(rate: other)
        #expect(live.recomputed == ["BTC", "ETH", "XRP"])
        #expect(live.board == Self.full(Self.snapshot, rate: other))
        #expect(live.rowsRecomputed == 6)
    }

    @Test("one frame for BTC on upbit recomputes BTC's row only, and the board is the full board's")
    func oneFrameOneRow() throws {
        var live = LivePremiumBoard(currency: "KRW", quotes: Self.snapshot, rate: Self.rate)
        let before = try #require(live.board)
        let frame = Self.quote("upbit", "BTC", "KRW", 141_234_000)
        live.apply([frame])
        #expect(live.recomputed == ["BTC"])
        #expect(live.rowsRecomputed == 3 + 1)
        let after = try #require(live.board)
        var quotes = Self.snapshot
        quotes[0] = frame
        #expect(after == Self.full(quotes))
        // (141234000 / (99050 × 1400) − 1) × 100 = 1.8468 → 1.85 %, the median of binance and okx.
        #expect(after.rows[0].venues.first { $0.exchange == "upbit" }?.premiumPercent == Decimal(string: "1.85"))
        // The other rows are the ones made before, untouched.
        #expect(after.rows[1] == before.rows[1])
        #expect(after.rows[2] == before.rows[2])
    }

    @Test("a global frame recomputes its coin; a coin that gains a local price joins the board")
    func globalAndNewCoin() {
        var live = LivePremiumBoard(currency: "KRW", quotes: Self.snapshot, rate: Self.rate)
        let eth = Self.quote("okx", "ETH", "USDT", 3520)
        live.apply([eth])
        #expect(live.recomputed == ["ETH"])
        let sol = Self.quote("upbit", "SOL", "KRW", 212_000)
        live.apply([sol])
        #expect(live.recomputed == ["SOL"])
        var quotes = Self.snapshot
        quotes[10] = eth
        quotes.append(sol)
        #expect(live.board == Self.full(quotes))
        #expect(live.board?.rows.map(\.base) == ["BTC", "ETH", "SOL", "XRP"])
    }

    @Test("a local venue's USDT price enters every row: it recomputes them all and the tether line")
    func tetherMovesEveryRow() {
        var live = LivePremiumBoard(currency: "KRW", quotes: Self.snapshot, rate: Self.rate)
        let usdt = Self.quote("upbit", "USDT", "KRW", 1420)
        live.apply([usdt])
        #expect(live.recomputed == ["BTC", "ETH", "XRP"])
        var quotes = Self.snapshot
        quotes[5] = usdt
        #expect(live.board == Self.full(quotes))
        #expect(live.board?.tether.map(\.price) == [1405, 1420])
    }

    @Test("a coin with no row (listed on one side only) costs no row")
    func oneSidedCoin() {
        var live = LivePremiumBoard(currency: "KRW", quotes: Self.snapshot, rate: Self.rate)
        live.apply([Self.quote("binance", "SOL", "USDT", 151)])
        #expect(live.recomputed == [])
        #expect(live.rowsRecomputed == 3)
    }

    @Test("the markets followed: the board's coins (or those asked), each venue's, and every local USDT market")
    func streamPlan() throws {
        let registry = EndToEndEveryVenueTests.shipped
        let venues = try ["upbit", "bithumb", "binance", "okx"].map { try #require(registry.descriptor(id: $0)) }
        let request = PremiumService.Request(
            currency: "KRW", venues: venues, fxSources: [], fxSource: nil, maximumFXAgeSeconds: 3600)
        func text(_ plan: QuoteService.Plan) -> [String] {
            plan.requests.map { "\($0.venue): " + $0.markets.map(\.description).joined(separator: " ") }
        }
        #expect(
            text(PremiumService.streamPlan(request, snapshot: Self.snapshot, symbols: ["BTC"])) == [
                "upbit: BTC/KRW USDT/KRW", "bithumb: BTC/KRW USDT/KRW", "binance: BTC/USDT", "okx: BTC/USDT",
            ])
        #expect(
            text(PremiumService.streamPlan(request, snapshot: Self.snapshot, symbols: [])) == [
                "upbit: BTC/KRW ETH/KRW USDT/KRW XRP/KRW", "bithumb: BTC/KRW ETH/KRW USDT/KRW",
                "binance: BTC/USDT ETH/USDT XRP/USDT", "okx: BTC/USDT ETH/USDT",
            ])
    }
}
