import AggCore
import AggJSON
import FoundationEssentials

/// Decoding of Binance's spot answers into the normalized model.
enum BinanceDecoding {
    /// The code Binance gives a symbol it does not know.
    static let invalidSymbolCode = "-1121"

    /// Binance's answers: the data itself, or an error `{"code":-1121,"msg":"Invalid symbol."}`.
    static let envelope = ResponseEnvelope(error: { json, _ in venueError(in: json) })

    /// The venue error in a Binance answer, if any: `{"code":-1121,"msg":"Invalid symbol."}`.
    ///
    /// The code and message are kept verbatim. (Its 429 and 418 answers carry an envelope too;
    /// `VenueClient` reports them as rate limits.)
    static func venueError(in json: JSONCursor) -> VenueErrorFields? {
        guard json["code"].isPresent, json["msg"].isPresent, !json["symbol"].isPresent else { return nil }
        return VenueErrorFields(code: (try? json["code"].text()) ?? "", message: (try? json["msg"].text()) ?? "")
    }

    /// A 24-hour ticker for one symbol, from REST's `/api/v3/ticker/24hr` (`tickerFields`,
    /// symbol `symbol`) or the `@ticker` stream's `24hrTicker` event (`streamTickerFields`,
    /// symbol `s`): the values are the same, the names differ. Every decimal is a string; the
    /// change percent is already a percent.
    static func quote(_ ticker: JSONCursor, fields: TickerFields = tickerFields, symbol: String = "symbol")
        throws(JSONDecodingError) -> Quote
    {
        let market = try ticker.market(symbol: symbol, APIRouter.market(fromVenueSymbol:))
        return try Quote(ticker, fields: fields, market: market, venue: BinanceAdapter.descriptor)
    }

    static let tickerFields = TickerFields(
        last: "lastPrice", open: "openPrice", high: "highPrice", low: "lowPrice", previousClose: "prevClosePrice",
        change: .named(change: "priceChange", percent: "priceChangePercent"), baseVolume: "volume",
        quoteVolume: "quoteVolume", time: "closeTime")

    /// The `@ticker` stream's event: `x` is the last price before the window (REST's
    /// `prevClosePrice`), `E` the event's time.
    static let streamTickerFields = TickerFields(
        last: "c", open: "o", high: "h", low: "l", previousClose: "x", change: .named(change: "p", percent: "P"),
        baseVolume: "v", quoteVolume: "q", time: "E")

    /// The trading symbols of an `/api/v3/exchangeInfo` answer whose quote agg asks Binance for.
    /// Binance names base and quote itself, so nothing is split here.
    ///
    /// Each symbol is read on its own: one whose fields are not the strings Binance documents,
    /// whose base is not a coin code (empty, a quote or a control character in it) or whose
    /// symbol is not its base and quote written together, is skipped and reported with its
    /// path, and every other symbol is listed. A symbol that is not trading, or in a quote agg
    /// does not ask Binance for, is left out without a report.
    static func markets(_ json: JSONCursor) throws(JSONDecodingError) -> BulkAnswer<MarketListing> {
        try .elements(
            of: json["symbols"], venue: BinanceAdapter.descriptor.id, nameKey: "symbol",
            market: { entry in
                guard let base = try? entry["baseAsset"].string(), let quote = try? entry["quoteAsset"].string(),
                    AssetCode.isNormalized(base), AssetCode.isNormalized(quote)
                else { return APIRouter.market(fromVenueSymbol: (try? entry["symbol"].string()) ?? "") }
                return Market(base: base, quote: quote)
            }
        ) { entry throws(JSONDecodingError) in
            let symbolField = entry["symbol"]
            let symbol = try symbolField.string()
            guard try entry["status"].string() == "TRADING" else { return nil }
            let quote = try entry["quoteAsset"].string()
            guard APIRouter.quoteCurrencies.contains(quote) else { return nil }
            let baseField = entry["baseAsset"]
            let base = try baseField.string()
            guard AssetCode.isNormalized(base) else {
                throw baseField.failure("'\(base.prefix(40))' is not a coin code")
            }
            guard symbol == base + quote else {
                throw symbolField.failure("'\(symbol.prefix(40))' is not \(base) and \(quote) written together")
            }
            return MarketListing(
                exchange: BinanceAdapter.descriptor.id, market: Market(base: base, quote: quote), venueSymbol: symbol)
        }
    }
}
