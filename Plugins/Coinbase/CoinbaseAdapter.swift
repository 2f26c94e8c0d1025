import AggCore
import AggJSON

/// Coinbase Exchange (United States), public market data: a product's ticker and 24-hour
/// stats, fetched concurrently and merged into one quote, mainly in USD.
public struct CoinbaseAdapter: ExchangeAdapter {
    public static let descriptor = AdapterDescriptor(
        id: "coinbase",
        displayName: "Coinbase Exchange",
        country: "US",
        homeCurrency: "USD",
        quoteCurrencies: APIRouter.quoteCurrencies,
        capabilities: [.ticker, .markets],
        requestsPerSecond: 10,
        defaultBaseURL: "https://api.exchange.coinbase.com",
        changeBasis: .rolling24h
    )

    private let baseURL: String
    private let client: VenueClient

    public init(environment: AdapterEnvironment) {
        baseURL = environment.baseURL
        client = VenueClient(venue: Self.descriptor.id, http: environment.http)
    }

    private func get(_ route: APIRouter) async throws(AggError) -> JSONCursor {
        try await client.getJSON(route.url(baseURL: baseURL)) { json, response in
            CoinbaseDecoding.venueError(in: json, response: response)
        }.json
    }

    /// `route`'s answer for `market`, with Coinbase's 404 turned into "not listed".
    private func get(_ route: APIRouter, for market: Market) async throws(AggError) -> JSONCursor {
        do throws(AggError) {
            return try await get(route)
        } catch {
            throw Self.isNotListed(error) ? error.notListed(market) : error
        }
    }

    /// Ticker and stats are independent requests, sent at once: one round trip, not two.
    public func quote(for market: Market) async throws(AggError) -> Quote {
        guard APIRouter.venueSymbol(for: market) != nil else {
            throw .notListed(
                venue: Self.descriptor.id, market: market, code: "",
                message: "agg asks Coinbase only for markets in \(APIRouter.quoteCurrencies.joined(separator: ", "))")
        }
        async let tickerAnswer = result { () async throws(AggError) in try await get(.ticker(market), for: market) }
        async let statsAnswer = result { () async throws(AggError) in try await get(.stats(market), for: market) }
        let ticker = try await tickerAnswer.get()
        let stats = try await statsAnswer.get()
        return try client.decode { () throws(JSONDecodingError) in
            try CoinbaseDecoding.quote(market: market, ticker: ticker, stats: stats)
        }
    }

    public func markets() async throws(AggError) -> [MarketListing] {
        let json = try await get(.products)
        return try client.decode { () throws(JSONDecodingError) in try CoinbaseDecoding.markets(json) }
    }
}

/// `body`'s outcome as a value, so that a typed error survives `async let`.
private func result<T>(_ body: () async throws(AggError) -> T) async -> Result<T, AggError> {
    do throws(AggError) {
        return .success(try await body())
    } catch {
        return .failure(error)
    }
}

extension CoinbaseAdapter {
    /// Coinbase answers a request for an unknown product with HTTP 404 and "NotFound".
    public static func isNotListed(_ error: AggError) -> Bool {
        switch error {
        case .notListed: true
        case .venue(_, let code, _): code == "404"
        default: false
        }
    }
}
