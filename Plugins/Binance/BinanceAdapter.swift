import AggCore
import AggJSON

/// Binance (global), spot API: rolling 24-hour tickers and the symbol list, quoted mainly in
/// USDT. From some countries Binance answers every request with HTTP 451; that is reported as a
/// restricted location, not as a failure of the venue.
public struct BinanceAdapter: ExchangeAdapter {
    public static let descriptor = AdapterDescriptor(
        id: "binance",
        displayName: "Binance",
        country: "MT",
        homeCurrency: "USDT",
        quoteCurrencies: APIRouter.quoteCurrencies,
        capabilities: [.ticker, .markets],
        // The limit is request weight, 6000 a minute: about 50 ticker requests a second; 20 leaves
        // room for the heavier symbol list.
        requestsPerSecond: 20,
        defaultBaseURL: "https://api.binance.com",
        changeBasis: .rolling24h
    )

    private let baseURL: String
    private let client: VenueClient

    public init(environment: AdapterEnvironment) {
        baseURL = environment.baseURL
        client = VenueClient(venue: Self.descriptor.id, http: environment.http)
    }

    private func get(_ route: APIRouter) async throws(AggError) -> JSONCursor {
        try await client.getJSON(route.url(baseURL: baseURL)) { json, _ in
            BinanceDecoding.venueError(in: json)
        }.json
    }

    public func quote(for market: Market) async throws(AggError) -> Quote {
        guard APIRouter.venueSymbol(for: market) != nil else {
            throw .notListed(
                venue: Self.descriptor.id, market: market, code: "",
                message: "agg asks Binance only for markets in \(APIRouter.quoteCurrencies.joined(separator: ", "))")
        }
        let json: JSONCursor
        do throws(AggError) {
            json = try await get(.ticker24h(market))
        } catch {
            throw Self.isNotListed(error) ? error.notListed(market) : error
        }
        let quote = try client.decode { () throws(JSONDecodingError) in try BinanceDecoding.quote(json) }
        guard quote.market == market else {
            throw .decoding(
                venue: Self.descriptor.id, path: "$.symbol", detail: "asked for \(market), got \(quote.market)")
        }
        return quote
    }

    public func markets() async throws(AggError) -> [MarketListing] {
        let json = try await get(.exchangeInfo)
        return try client.decode { () throws(JSONDecodingError) in try BinanceDecoding.markets(json) }
    }
}

extension BinanceAdapter {
    /// Binance answers a ticker request for an unknown symbol with code -1121 "Invalid symbol.".
    public static func isNotListed(_ error: AggError) -> Bool {
        switch error {
        case .notListed: true
        case .venue(_, let code, _): code == BinanceDecoding.invalidSymbolCode
        default: false
        }
    }
}
