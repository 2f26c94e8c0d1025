import AggCore
import AggTestKit
import FoundationEssentials
import Testing

private func table(_ source: String, _ krw: String, asOfSeconds: Int64, base: String = "USD") -> RateTable {
    RateTable(
        source: source, base: base, rates: ["KRW": decimal(krw), base: 1],
        asOf: Timestamp(millisecondsSince1970: asOfSeconds * 1000), nextUpdate: nil)
}

/// 2024-08-08T08:12:15Z, the fixtures' moment.
private let moment: Int64 = 1_723_104_735

@Suite("KRW rates across sources")
struct RateSourcesTests {
    let tables = [
        table("frankfurter", "1371.55", asOfSeconds: moment - 16 * 3600),
        table("dunamu", "1375.2", asOfSeconds: moment - 60),
        table("exchangerate", "1373.003043", asOfSeconds: moment - 8 * 3600),
    ]

    @Test("each FX source and each venue's USDT/KRW against the median of the FX sources")
    func deviations() {
        let market = [
            Quote(exchange: "upbit", market: Market(base: "USDT", quote: "KRW"), last: 1380),
            Quote(exchange: "bithumb", market: Market(base: "USDT", quote: "KRW"), last: 1374),
            Quote(exchange: "bithumb", market: Market(base: "BTC", quote: "KRW"), last: 80_630_000),
        ]
        let sources = RateSources(base: "USD", quote: "KRW", tables: tables, market: market)
        #expect(sources.median == decimal("1373.003043"))
        #expect(
            sources.entries.map(\.source)
                == ["frankfurter", "dunamu", "exchangerate", "bithumb USDT/KRW", "upbit USDT/KRW"])
        #expect(sources.entries.map(\.kind) == [.fx, .fx, .fx, .market, .market])
        #expect(
            sources.entries.map(\.deviationPercent)
                == ["-0.11", "0.16", "0", "0.07", "0.51"].map { decimal($0) })
    }

    @Test("an even number of sources: the mean of the middle two; no market rates for another base")
    func evenCount() {
        let sources = RateSources(
            base: "USD", quote: "KRW", tables: Array(tables.prefix(2)) + [table("x", "1", asOfSeconds: 0, base: "EUR")])
        #expect(sources.median == decimal("1373.375"))
        #expect(sources.entries.map(\.deviationPercent) == [decimal("-0.13"), decimal("0.13")])
        #expect(RateSources(base: "EUR", quote: "KRW", tables: tables).entries == [])
        #expect(RateSources(base: "EUR", quote: "KRW", tables: tables).median == nil)
    }

    @Test("the freshest source by default, a named one on request")
    func choice() throws {
        let now = Timestamp(millisecondsSince1970: moment * 1000)
        let limit = FXChoice.defaultMaximumAgeSeconds
        #expect(
            try FXChoice.choose(from: tables, named: nil, quote: "KRW", now: now, maximumAgeSeconds: limit).source
                == "dunamu")
        #expect(
            try FXChoice.choose(from: tables, named: "frankfurter", quote: "KRW", now: now, maximumAgeSeconds: limit)
                .source == "frankfurter")
    }

    @Test("a rate older than the limit, a source that did not answer, or none: each refused with why")
    func refusals() {
        let now = Timestamp(millisecondsSince1970: moment * 1000)
        #expect(
            throws: AggError.fxUnavailable(
                "frankfurter's rate is from 2024-08-07T16:12:15.000Z, 16 h old, older than the 12 h allowed (--max-fx-age)"
            )
        ) {
            try FXChoice.choose(
                from: tables, named: "frankfurter", quote: "KRW", now: now, maximumAgeSeconds: 12 * 3600)
        }
        #expect(throws: AggError.fxUnavailable("nope gave no KRW rate (answered: dunamu, exchangerate, frankfurter)")) {
            try FXChoice.choose(from: tables, named: "nope", quote: "KRW", now: now, maximumAgeSeconds: 3600)
        }
        #expect(throws: AggError.fxUnavailable("no FX source gave a KRW rate")) {
            try FXChoice.choose(from: [], named: nil, quote: "KRW", now: now, maximumAgeSeconds: 3600)
        }
        #expect(
            AggError.fxUnavailable("no FX source gave a KRW rate").description
                == "no usable FX rate: no FX source gave a KRW rate")
    }
}

/// Rule 2 of issue 20: an FX rate's age is counted from a bounded clock, so one venue's clock
/// far ahead cannot make every rate too old.
@Suite("FX age from a bounded clock")
struct FXAgeReferenceTests {
    static let now = Timestamp(millisecondsSince1970: 1_723_104_735_027)

    static func quote(_ venue: String, at milliseconds: Int64?) -> Quote {
        Quote(
            exchange: venue, market: Market(base: "BTC", quote: "KRW"), last: 1,
            timestamp: milliseconds.map { Timestamp(millisecondsSince1970: $0) })
    }

    static let cases: [(times: [Int64?], expected: Int64)] = [
        ([], 1_723_104_735_027),
        ([nil], 1_723_104_735_027),
        ([1_723_104_000_000, nil], 1_723_104_000_000),
        ([1_723_000_000_000, 1_723_104_000_000], 1_723_104_000_000),
        // OKX's ts in 2100, and seconds read as milliseconds' worth of years (year 56573).
        ([1_723_104_000_000, 4_102_444_800_000], 1_723_104_735_027),
        ([1_723_104_000_000, 1_723_104_735_027_000], 1_723_104_735_027),
    ]

    @Test("the newest ticker time, never past now", arguments: cases)
    func reference(times: [Int64?], expected: Int64) {
        let quotes = times.enumerated().map { Self.quote("v\($0.offset)", at: $0.element) }
        #expect(
            FXChoice.ageReference(quotes: quotes, now: Self.now) == Timestamp(millisecondsSince1970: expected))
    }

    @Test("a venue in 2100 leaves a two-day-old rate usable")
    func futureVenueKeepsTheRate() throws {
        let table = RateTable(
            source: "ecb", base: "USD", rates: ["KRW": 1370],
            asOf: Timestamp(millisecondsSince1970: Self.now.millisecondsSince1970 - 2 * 86_400_000), nextUpdate: nil)
        let quotes = [Self.quote("bithumb", at: 1_723_104_000_000), Self.quote("okx", at: 4_102_444_800_000)]
        let chosen = try FXChoice.choose(
            from: [table], named: nil, quote: "KRW", now: FXChoice.ageReference(quotes: quotes, now: Self.now),
            maximumAgeSeconds: FXChoice.defaultMaximumAgeSeconds)
        #expect(chosen.source == "ecb")
    }
}
