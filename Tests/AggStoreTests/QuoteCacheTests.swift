import AggCore
import Testing

@testable import AggStore

@Suite("Quote cache")
struct QuoteCacheTests {
    static let btc = Market(base: "BTC", quote: "KRW")

    static func fullQuote(last: String = "80630000.5") throws -> Quote {
        Quote(
            exchange: "bithumb", market: btc, last: try decimal(last), open: try decimal("80000000"),
            high: try decimal("81000000.25"), low: try decimal("79000000"), previousClose: try decimal("79900000"),
            change: try decimal("-630000.5"), changePercent: try decimal("0.000712345678901234"),
            baseVolume: try decimal("1234.56789012"), quoteVolume: try decimal("99876543210.123"),
            timestamp: Timestamp(millisecondsSince1970: 1_723_104_735_027)
        )
    }

    @Test("every field comes back exactly, with when it was fetched")
    func roundTrip() async throws {
        try await withTemporaryDirectory { folder in
            let store = try Store.open(path: folder + "/agg.sqlite")
            let quote = try Self.fullQuote()
            let fetched = Timestamp(millisecondsSince1970: 1_723_104_736_000)
            try store.cacheQuotes([quote], fetchedAt: fetched)
            let cached = try #require(try store.cachedQuote(exchange: "bithumb", market: Self.btc))
            #expect(cached.quote == quote)
            #expect(cached.quote.changePercent?.description == "0.000712345678901234")
            #expect(cached.fetchedAt == fetched)
        }
    }

    /// Every row of a batch of 70 comes back, through the plain replace and through the upsert
    /// that keeps newer rows.
    @Test("a long batch is written whole, replaced whole, and kept where newer")
    func longBatch() async throws {
        try await withTemporaryDirectory { folder in
            let store = try Store.open(path: folder + "/agg.sqlite")
            func batch(_ exchange: String, last offset: Int) throws -> [Quote] {
                try (0..<70).map { index in
                    var quote = try Self.fullQuote(last: "\(offset + index).25")
                    quote.exchange = exchange
                    quote.market = Market(base: "C\(index)", quote: "KRW")
                    return quote
                }
            }
            let first = try batch("bithumb", last: 1000)
            try store.cacheQuotes(first, fetchedAt: Timestamp(secondsSince1970: 10))
            #expect(try store.integer("SELECT count(*) FROM quote_cache") == 70)
            for quote in first {
                #expect(try store.cachedQuote(exchange: "bithumb", market: quote.market)?.quote == quote)
            }
            // A later batch replaces every row.
            let second = try batch("bithumb", last: 2000)
            try store.cacheQuotes(second, fetchedAt: Timestamp(secondsSince1970: 20))
            #expect(
                try store.cachedQuote(exchange: "bithumb", market: Market(base: "C69", quote: "KRW"))?.quote
                    == second[69])
            // An older batch of the same venue and a new venue's batch: the upsert keeps every newer
            // bithumb row and writes all of upbit's.
            let older = try batch("bithumb", last: 3000) + batch("upbit", last: 4000)
            try store.cacheQuotes(older, fetchedAt: Timestamp(secondsSince1970: 15))
            #expect(try store.integer("SELECT count(*) FROM quote_cache") == 140)
            for (index, quote) in second.enumerated() {
                let cached = try store.cachedQuote(exchange: "bithumb", market: quote.market)
                #expect(cached?.quote == quote, "C\(index)")
                #expect(cached?.fetchedAt == Timestamp(secondsSince1970: 20))
            }
            for quote in older[70...] {
                #expect(try store.cachedQuote(exchange: "upbit", market: quote.market)?.quote == quote)
            }
        }
    }

    @Test("missing fields stay nil")
    func nilFields() async throws {
        try await withTemporaryDirectory { folder in
            let store = try Store.open(path: folder + "/agg.sqlite")
            let quote = Quote(exchange: "upbit", market: Self.btc, last: try decimal("1"))
            try store.cacheQuotes([quote], fetchedAt: Timestamp(secondsSince1970: 10))
            let cached = try #require(try store.cachedQuote(exchange: "upbit", market: Self.btc))
            #expect(cached.quote == quote)
            #expect(cached.quote.open == nil && cached.quote.timestamp == nil && cached.quote.quoteVolume == nil)
        }
    }

    @Test("a newer quote replaces the cached one, fields it lacks included")
    func upsert() async throws {
        try await withTemporaryDirectory { folder in
            let store = try Store.open(path: folder + "/agg.sqlite")
            let eth = Market(base: "ETH", quote: "KRW")
            let ethQuote = Quote(exchange: "bithumb", market: eth, last: try decimal("3500000"))
            try store.cacheQuotes([try Self.fullQuote(), ethQuote], fetchedAt: Timestamp(secondsSince1970: 10))
            let newer = Quote(exchange: "bithumb", market: Self.btc, last: try decimal("81000000"))
            try store.cacheQuotes([newer], fetchedAt: Timestamp(secondsSince1970: 20))

            let cached = try #require(try store.cachedQuote(exchange: "bithumb", market: Self.btc))
            #expect(cached.quote == newer)
            #expect(cached.fetchedAt == Timestamp(secondsSince1970: 20))
            #expect(try store.cachedQuote(exchange: "bithumb", market: eth)?.quote == ethQuote)
            #expect(try store.integer("SELECT count(*) FROM quote_cache") == 2)
        }
    }

    @Test("an older fetch does not overwrite a newer cached quote")
    func olderFetch() async throws {
        try await withTemporaryDirectory { folder in
            let store = try Store.open(path: folder + "/agg.sqlite")
            let current = try Self.fullQuote(last: "2")
            try store.cacheQuotes([current], fetchedAt: Timestamp(secondsSince1970: 20))
            try store.cacheQuotes([try Self.fullQuote(last: "1")], fetchedAt: Timestamp(secondsSince1970: 10))
            let cached = try #require(try store.cachedQuote(exchange: "bithumb", market: Self.btc))
            #expect(cached.quote == current)
            #expect(cached.fetchedAt == Timestamp(secondsSince1970: 20))
        }
    }

    @Test("a batch mixing venues with newer cached quotes and venues without keeps only the newer ones")
    func mixedBatch() async throws {
        try await withTemporaryDirectory { folder in
            let store = try Store.open(path: folder + "/agg.sqlite")
            let eth = Market(base: "ETH", quote: "KRW")
            let newer = try Self.fullQuote(last: "2")
            try store.cacheQuotes([newer], fetchedAt: Timestamp(secondsSince1970: 10))
            let older = try Self.fullQuote(last: "1")
            var olderETH = older
            olderETH.market = eth
            var olderUpbit = older
            olderUpbit.exchange = "upbit"
            try store.cacheQuotes([older, olderETH, olderUpbit], fetchedAt: Timestamp(secondsSince1970: 5))
            #expect(try store.cachedQuote(exchange: "bithumb", market: Self.btc)?.quote == newer)
            #expect(try store.cachedQuote(exchange: "bithumb", market: eth)?.quote == olderETH)
            #expect(try store.cachedQuote(exchange: "upbit", market: Self.btc)?.quote == olderUpbit)
            // A later batch with nothing newer in the way replaces every row.
            let latest = try Self.fullQuote(last: "3")
            try store.cacheQuotes([latest], fetchedAt: Timestamp(secondsSince1970: 20))
            #expect(try store.cachedQuote(exchange: "bithumb", market: Self.btc)?.quote == latest)
            #expect(
                try store.cachedQuote(exchange: "bithumb", market: Self.btc)?.fetchedAt
                    == Timestamp(secondsSince1970: 20))
        }
    }

    @Test("a quote never cached is nil, per exchange and market")
    func miss() async throws {
        try await withTemporaryDirectory { folder in
            let store = try Store.open(path: folder + "/agg.sqlite")
            try store.cacheQuotes([try Self.fullQuote()], fetchedAt: Timestamp(secondsSince1970: 1))
            #expect(try store.cachedQuote(exchange: "upbit", market: Self.btc) == nil)
            #expect(try store.cachedQuote(exchange: "bithumb", market: Market(base: "BTC", quote: "USDT")) == nil)
        }
    }

    @Test("texts too long for the batch's shared buffer, and empty texts, are stored exactly")
    func textsOfEverySize() async throws {
        try await withTemporaryDirectory { folder in
            let store = try Store.open(path: folder + "/agg.sqlite")
            let long = String(repeating: "거래소", count: 2_000)
            let market = Market(base: "", quote: "KRW")
            let quotes = [
                Quote(exchange: long, market: Self.btc, last: try decimal("1.5")),
                Quote(exchange: "bithumb", market: market, last: try decimal("-0.00000001")),
                try Self.fullQuote(),
            ]
            try store.cacheQuotes(quotes, fetchedAt: Timestamp(secondsSince1970: 1))
            #expect(try store.cachedQuote(exchange: long, market: Self.btc)?.quote == quotes[0])
            #expect(try store.cachedQuote(exchange: "bithumb", market: market)?.quote == quotes[1])
            #expect(try store.cachedQuote(exchange: "bithumb", market: Self.btc)?.quote == quotes[2])
        }
    }

    @Test("NaN is refused with a clear error and nothing is stored")
    func notANumber() async throws {
        try await withTemporaryDirectory { folder in
            let store = try Store.open(path: folder + "/agg.sqlite")
            let good = Quote(exchange: "upbit", market: Self.btc, last: try decimal("1"))
            let bad = Quote(exchange: "bithumb", market: Self.btc, last: .nan)
            let message = storeErrorMessage { () throws(AggError) in
                try store.cacheQuotes([good, bad], fetchedAt: Timestamp(secondsSince1970: 1))
            }
            #expect(message?.contains(store.path) == true)
            #expect(message?.contains("NaN") == true)
            // The transaction rolled back the good quote too.
            #expect(try store.cachedQuote(exchange: "upbit", market: Self.btc) == nil)
        }
    }
}
