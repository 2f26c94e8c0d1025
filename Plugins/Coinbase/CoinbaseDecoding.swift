import AggCore
import AggJSON
import FoundationEssentials

/// Decoding of Coinbase Exchange answers into the normalized model.
enum CoinbaseDecoding {
    /// The message Coinbase sends, with HTTP 404, for a product it does not have.
    static let notFoundMessage = "NotFound"

    /// The decimals a derived change percent is rounded to.
    static let percentScale = 4

    /// The HTTP status Coinbase answers a product it does not have with, standing in as its code.
    static let notFoundCode = "404"

    /// Coinbase's answers: the data itself, or an error `{"message":"NotFound"}`.
    static let envelope = ResponseEnvelope(error: venueError)

    /// The venue error in a Coinbase answer, if any: `{"message":"NotFound"}`.
    ///
    /// Coinbase sends no code of its own, so the HTTP status stands in as the code; the message
    /// is kept verbatim. Successful answers never carry a top-level `message`.
    static func venueError(in json: JSONCursor, response: HTTPResponse) -> VenueErrorFields? {
        guard case .string(let message)? = json["message"].value else { return nil }
        return VenueErrorFields(code: String(response.status), message: message)
    }

    /// The names of the 24-hour statistics in a quote's sources: REST's `stats` answer calls
    /// them `open`, `high`, `low` and `volume`; a stream `ticker` message carries them itself
    /// as `open_24h`, `high_24h`, `low_24h` and `volume_24h`.
    struct StatsKeys {
        var open, high, low, volume: String

        static let rest = StatsKeys(open: "open", high: "high", low: "low", volume: "volume")
        static let stream = StatsKeys(open: "open_24h", high: "high_24h", low: "low_24h", volume: "volume_24h")
    }

    /// A quote from the `ticker` and `stats` answers of one product (`statsKeys` `.rest`), or
    /// from one stream `ticker` message, passed as both (`.stream`).
    ///
    /// Coinbase sends no change: it is derived from the 24-hour open of the stats and the last
    /// trade of the ticker, exactly; the percent is rounded to `percentScale` decimals. The time
    /// is the ticker's `time`.
    static func quote(market: Market, ticker: JSONCursor, stats: JSONCursor, statsKeys: StatsKeys = .rest)
        throws(JSONDecodingError) -> Quote
    {
        let last = try ticker.price("price")
        let open = try stats.optionalDecimal(statsKeys.open)
        let change = open.map { last - $0 }
        var changePercent: Decimal?
        if let open, let change, open != 0 {
            changePercent = DecimalRounding.rounded(change / open * 100, places: percentScale)
        }
        let timeField = ticker["time"]
        var timestamp: Timestamp?
        if let text = try timeField.optionalString() {
            guard let parsed = Timestamp(iso8601: text) else {
                throw timeField.failure("'\(text.prefix(40))' is not an ISO-8601 time")
            }
            timestamp = try timeField.venueTime(parsed)
        }
        return Quote(
            exchange: CoinbaseAdapter.descriptor.id,
            market: market,
            last: last,
            open: open,
            high: try stats.optionalDecimal(statsKeys.high),
            low: try stats.optionalDecimal(statsKeys.low),
            change: change,
            changePercent: changePercent,
            changeBasis: CoinbaseAdapter.descriptor.changeBasis,
            baseVolume: try stats.optionalDecimal(statsKeys.volume),
            timestamp: timestamp
        )
    }

    /// The online products of a `/products` answer whose quote agg asks Coinbase for.
    ///
    /// Each product is read on its own: one whose `id` is not a string or not `BASE-QUOTE` with
    /// a coin code as its base (empty, a quote or a control character in it), or whose `status`
    /// is not a string, is skipped and reported with its path, and every other product is listed.
    /// (`display_name` is the product id again, "BTC-USD", not the asset's name: Coinbase
    /// publishes no names here, so none are claimed.)
    static func markets(_ json: JSONCursor) throws(JSONDecodingError) -> BulkAnswer<MarketListing> {
        try .coded(
            json, venue: CoinbaseAdapter.descriptor.id, codeKey: "id", format: APIRouter.productCode,
            statusKey: "status", active: "online", market: APIRouter.market(fromVenueSymbol:),
            isListed: { $0["trading_disabled"].value != .bool(true) })
    }
}
