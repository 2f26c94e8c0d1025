import AggCore
import AggJSON
import Foundation

/// What the contract checker asks one venue for, as data: `Fixtures/<venue>/contract.json`,
/// beside the venue's `routes.json`, whose recorded answers must cover these requests.
///
/// ```json
/// {"listed": "BTC/KRW", "unlisted": "NOPE/KRW", "candleInterval": "1m"}
/// {"fxBase": "USD"}
/// ```
public struct ContractSamples: Sendable, Equatable {
    /// A market the venue lists: every market capability is asked about it.
    public var listed: Market?
    /// A market the venue does not list: its not-found answer must become `notListed`.
    public var unlisted: Market?
    /// The quote currency to ask all tickers in; the venue's home currency when absent.
    public var allTickersQuote: String?
    /// A base currency an FX venue answers rates from.
    public var fxBase: String?
    /// A recorded candle interval; the venue's first offered interval when absent.
    public var candleInterval: CandleInterval?

    public init(
        listed: Market? = nil, unlisted: Market? = nil, allTickersQuote: String? = nil, fxBase: String? = nil,
        candleInterval: CandleInterval? = nil
    ) {
        self.listed = listed
        self.unlisted = unlisted
        self.allTickersQuote = allTickersQuote
        self.fxBase = fxBase
        self.candleInterval = candleInterval
    }

    /// The samples in `directory/contract.json`.
    public init(directory: URL) throws {
        let url = directory.appendingPathComponent("contract.json")
        let json = JSONCursor(try JSONParser.parse(Array(try Data(contentsOf: url))))
        func market(_ key: String) throws -> Market? {
            try json[key].optionalString().map { text in try Market.parse(text, defaultQuote: nil) }
        }
        var interval: CandleInterval?
        if let text = try json["candleInterval"].optionalString() {
            guard let parsed = CandleInterval(rawValue: text) else {
                throw json["candleInterval"].failure("unknown interval '\(text)'")
            }
            interval = parsed
        }
        self.init(
            listed: try market("listed"), unlisted: try market("unlisted"),
            allTickersQuote: try json["allTickersQuote"].optionalString(), fxBase: try json["fxBase"].optionalString(),
            candleInterval: interval)
    }

    /// The samples of `venue` in the checkout's `Fixtures/`.
    public static func venue(_ venue: String) throws -> ContractSamples {
        try ContractSamples(directory: Fixtures.directory.appendingPathComponent(venue))
    }
}
