import AggCore
import AggJSON

/// Binance (global), spot API: rolling 24-hour tickers and the symbol list, quoted mainly in
/// USDT. From some countries Binance answers every request with HTTP 451; that is reported as a
/// restricted location, not as a failure of the venue.
public struct BinanceAdapter: CompiledAdapter {
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
        changeBasis: .rolling24h,
        notListedCodes: [BinanceDecoding.invalidSymbolCode]
    )

    private let client: VenueClient

    public init(environment: AdapterEnvironment) {
        client = VenueClient(Self.descriptor, environment: environment, envelope: BinanceDecoding.envelope)
    }

    public func quote(for market: Market) async throws(AggError) -> Quote {
        try await client.get(APIRouter.ticker24h(market), for: market) { json throws(JSONDecodingError) in
            let quote = try BinanceDecoding.quote(json)
            guard quote.market == market else {
                throw json["symbol"].failure("asked for \(market), got \(quote.market)")
            }
            return quote
        }
    }

    public func markets() async throws(AggError) -> [MarketListing] {
        try await client.get(APIRouter.exchangeInfo, decode: BinanceDecoding.markets)
    }
}
