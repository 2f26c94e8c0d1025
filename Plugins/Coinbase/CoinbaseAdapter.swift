import AggCore
import AggJSON

/// Coinbase Exchange (United States), public market data: a product's ticker and 24-hour
/// stats, fetched concurrently and merged into one quote, mainly in USD.
public struct CoinbaseAdapter: CompiledAdapter {
    public static let descriptor = AdapterDescriptor(
        id: "coinbase",
        displayName: "Coinbase Exchange",
        country: "US",
        homeCurrency: "USD",
        quoteCurrencies: APIRouter.quoteCurrencies,
        capabilities: [.ticker, .markets],
        requestsPerSecond: 10,
        defaultBaseURL: "https://api.exchange.coinbase.com",
        changeBasis: .rolling24h,
        notListedCodes: [CoinbaseDecoding.notFoundCode]
    )

    private let client: VenueClient

    public init(environment: AdapterEnvironment) {
        client = VenueClient(Self.descriptor, environment: environment, envelope: CoinbaseDecoding.envelope)
    }

    /// Ticker and stats are independent requests, sent at once: one round trip, not two.
    public func quote(for market: Market) async throws(AggError) -> Quote {
        try client.requireServed(market)
        async let tickerAnswer = Result.catching { () throws(AggError) in try await json(.ticker(market), for: market) }
        async let statsAnswer = Result.catching { () throws(AggError) in try await json(.stats(market), for: market) }
        let ticker = try await tickerAnswer.get()
        let stats = try await statsAnswer.get()
        return try client.decode { () throws(JSONDecodingError) in
            try CoinbaseDecoding.quote(market: market, ticker: ticker, stats: stats)
        }
    }

    public func markets() async throws(AggError) -> [MarketListing] {
        try await client.get(APIRouter.products, decode: CoinbaseDecoding.markets)
    }

    /// `route`'s answer about `market`, undecoded.
    private func json(_ route: APIRouter, for market: Market) async throws(AggError) -> JSONCursor {
        try await client.get(route, for: market) { json throws(JSONDecodingError) in json }
    }
}
