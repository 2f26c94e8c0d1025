import AggCore
import AggJSON
import AggUpbitShape

/// Decoding of Upbit's quotation answers into the normalized model: the shared decoding of the
/// Upbit-shaped APIs (`UpbitShapeDecoder`, also used by Bithumb's v1), with Upbit's id, markets
/// and change basis.
enum UpbitDecoding {
    /// The shared decoder, set for Upbit.
    static let shape = UpbitShapeDecoder(
        exchange: UpbitAdapter.descriptor.id, markets: APIRouter.markets,
        changeBasis: UpbitAdapter.descriptor.changeBasis)

    /// Upbit's answers: the data itself (usually a bare array), or an error
    /// `{"error":{"name":404,"message":"Code not found"}}` (see `UpbitShapeDecoder.venueError`).
    static let envelope = UpbitShapeDecoder.envelope

    /// The code Upbit gives a market it does not list (HTTP 404 "Code not found").
    static let notFoundCode = "404"

    /// The tickers in a `/v1/ticker` answer, and the entries skipped.
    static func quotes(_ json: JSONCursor) throws(JSONDecodingError) -> BulkAnswer<Quote> {
        try shape.quotes(json)
    }

    /// The markets in a `/v1/market/all` answer with their Korean and English names, and the
    /// entries skipped.
    static func markets(_ json: JSONCursor) throws(JSONDecodingError) -> BulkAnswer<MarketListing> {
        try shape.listings(json)
    }
}
