import AggCore
import AggJSON
import FoundationEssentials

/// Decoding of Upbit's quotation answers into the normalized model.
public enum UpbitDecoding {
    /// The venue error in an Upbit answer, if any: `{"error":{"name":404,"message":"Code not
    /// found"}}`, where `name` is a number or a string (`too_many_requests`).
    ///
    /// The name becomes the code and the message is kept verbatim.
    public static func venueError(in json: JSONCursor, response: HTTPResponse) -> AggError? {
        let error = json["error"]
        guard case .object? = error.value else { return nil }
        return .venue(
            venue: UpbitAdapter.descriptor.id,
            code: (try? error["name"].text()) ?? String(response.status),
            message: (try? error["message"].text()) ?? "")
    }

    /// The code Upbit gives a market it does not list (HTTP 404 "Code not found").
    public static let notFoundCode = "404"

    /// The tickers in a `/v1/ticker` answer (an array), each mapped field by field.
    ///
    /// `signed_change_rate` is a fraction (0.0089 is 0.89 %); it becomes a percent by an exact
    /// multiplication by 100.
    public static func quotes(_ json: JSONCursor) throws(JSONDecodingError) -> [Quote] {
        var quotes: [Quote] = []
        for ticker in try json.elements() {
            let marketField = ticker["market"]
            let code = try marketField.string()
            guard let market = APIRouter.market(fromVenueSymbol: code) else {
                throw marketField.failure("unknown market code '\(code.prefix(40))'")
            }
            quotes.append(
                Quote(
                    exchange: UpbitAdapter.descriptor.id,
                    market: market,
                    last: try ticker["trade_price"].decimal(),
                    open: try ticker["opening_price"].optionalDecimal(),
                    high: try ticker["high_price"].optionalDecimal(),
                    low: try ticker["low_price"].optionalDecimal(),
                    previousClose: try ticker["prev_closing_price"].optionalDecimal(),
                    change: try ticker["signed_change_price"].optionalDecimal(),
                    changePercent: try ticker["signed_change_rate"].optionalDecimal().map { $0 * 100 },
                    baseVolume: try ticker["acc_trade_volume_24h"].optionalDecimal(),
                    quoteVolume: try ticker["acc_trade_price_24h"].optionalDecimal(),
                    timestamp: try ticker["timestamp"].optionalInt64().map {
                        Timestamp(millisecondsSince1970: $0)
                    }
                ))
        }
        return quotes
    }

    /// The markets in a `/v1/market/all` answer with their Korean and English names. Codes that
    /// do not map to a unified market (a quote Upbit did not have when this was written) are
    /// skipped.
    public static func markets(_ json: JSONCursor) throws(JSONDecodingError) -> [MarketListing] {
        var listings: [MarketListing] = []
        for entry in try json.elements() {
            let code = try entry["market"].string()
            guard let market = APIRouter.market(fromVenueSymbol: code) else { continue }
            listings.append(
                MarketListing(
                    exchange: UpbitAdapter.descriptor.id, market: market, venueSymbol: code,
                    koreanName: try entry["korean_name"].optionalString(),
                    englishName: try entry["english_name"].optionalString()))
        }
        return listings
    }
}
