import AggCore
import AggJSON

/// What one expectation asks a venue for: a capability and its arguments, as written in
/// `expectations.json` (`{"ticker": "BTC/KRW"}`, `{"candles": "BTC/KRW", "interval": "1m", "limit": 3}`).
public enum ExpectationRequest: Sendable, Equatable {
    case ticker(Market)
    /// Several markets at once, as `quote` and `compare` ask: one result a market.
    case quotes([Market])
    case allTickers(quote: String)
    case markets
    /// The market list as the CLI reads it: the listings that answered and, per quote
    /// currency, the requests that failed (`nil`: every currency).
    case marketList(quote: String?)
    case candles(Market, interval: CandleInterval, limit: Int)
    case trades(Market, limit: Int)
    case orderBook(Market, depth: Int)
    case fxRates(base: String)
    case transferStatus(coins: [String])

    /// The capability the request exercises (`quotes` exercises `ticker`).
    public var capability: Capability {
        switch self {
        case .ticker, .quotes: .ticker
        case .allTickers: .allTickers
        case .markets, .marketList: .markets
        case .candles: .candles
        case .trades: .trades
        case .orderBook: .orderBook
        case .fxRates: .fxRates
        case .transferStatus: .transferStatus
        }
    }

    /// The request written in `json`, an object with exactly one capability key.
    init(_ json: JSONCursor) throws(JSONDecodingError) {
        func market(_ cursor: JSONCursor) throws(JSONDecodingError) -> Market {
            let text = try cursor.string()
            do throws(AggError) {
                return try Market.parse(text, defaultQuote: nil)
            } catch {
                throw cursor.failure("'\(text)' is not a market: \(error.description)")
            }
        }
        func count(_ key: String) throws(JSONDecodingError) -> Int {
            guard let value = Int(exactly: try json[key].int64()), value > 0 else {
                throw json[key].failure("expected a positive count")
            }
            return value
        }
        let keys = try json.members().map(\.key)
        let kinds = keys.filter { Self.kinds.contains($0) }
        guard kinds.count == 1, let kind = kinds.first else {
            throw json.failure("expected one of \(Self.kinds.joined(separator: ", ")), found \(keys)")
        }
        let value = json[kind]
        switch kind {
        case "ticker": self = .ticker(try market(value))
        case "quotes":
            self = .quotes(try value.elements().map { cursor throws(JSONDecodingError) in try market(cursor) })
        case "allTickers": self = .allTickers(quote: try value.string())
        case "markets": self = .markets
        case "marketList": self = .marketList(quote: try value.optionalString())
        case "candles":
            let text = try json["interval"].string()
            guard let interval = CandleInterval(rawValue: text) else {
                throw json["interval"].failure("unknown interval '\(text)'")
            }
            self = .candles(try market(value), interval: interval, limit: try count("limit"))
        case "trades": self = .trades(try market(value), limit: try count("limit"))
        case "orderBook": self = .orderBook(try market(value), depth: try count("depth"))
        case "fxRates": self = .fxRates(base: try value.string())
        default:
            self = .transferStatus(
                coins: try value.elements().map { cursor throws(JSONDecodingError) in try cursor.string() })
        }
    }

    /// The keys naming what is asked for.
    static let kinds = [
        "ticker", "quotes", "allTickers", "markets", "marketList", "candles", "trades", "orderBook", "fxRates",
        "transferStatus",
    ]

    /// Asks `adapter`, and renders what it answered.
    func ask(_ adapter: any VenueAdapter) async throws(AggError) -> ModelValue {
        switch self {
        case .ticker(let market): return ModelValue(try await adapter.quote(for: market))
        case .quotes(let markets):
            let results = await adapter.quotes(for: markets)
            // One entry a market asked (asked twice, still one), then any result for a market
            // not asked, so that the expectation names exactly the markets answered.
            var seen: Set<Market> = []
            let asked = markets.filter { seen.insert($0).inserted }
            let extra = results.keys.filter { !seen.contains($0) }.sorted { $0.description < $1.description }
            return .record(
                (asked + extra).map { market in
                    let value: ModelValue =
                        switch results[market] {
                        case .success(let quote)?: ModelValue(quote)
                        case .failure(let error)?: ModelValue(error)
                        case nil: .text("no result")
                        }
                    return (market.description, value)
                })
        case .allTickers(let quote): return .list(try await adapter.allQuotes(quotedIn: quote).map(ModelValue.init))
        case .markets: return .list(try await adapter.markets().map(ModelValue.init))
        case .marketList(let quote):
            let list = await adapter.marketList(quotedIn: quote)
            let failures = list.failures.map { failure in
                ModelValue.record([
                    ("quote", .text(failure.quoteCurrency ?? "all")),
                    ("error", ModelValue(failure.error).field("error") ?? .text("")),
                ])
            }
            return .record([("listings", .list(list.listings.map(ModelValue.init))), ("failures", .list(failures))])
        case .candles(let market, let interval, let limit):
            return .list(try await adapter.candles(for: market, interval: interval, limit: limit).map(ModelValue.init))
        case .trades(let market, let limit):
            return .list(try await adapter.trades(for: market, limit: limit).map(ModelValue.init))
        case .orderBook(let market, let depth):
            return ModelValue(try await adapter.orderBook(for: market, depth: depth))
        case .fxRates(let base): return ModelValue(try await adapter.rates(base: base))
        case .transferStatus(let coins):
            return .list(try await adapter.transferStatus(coins: coins).map(ModelValue.init))
        }
    }
}
