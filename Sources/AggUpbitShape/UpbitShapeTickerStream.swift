import AggCore
import AggJSON

/// The ticker stream of the Upbit-shaped WebSockets (Upbit's, and Bithumb's, which copies its
/// request and ticker keys): one codec for both, told apart by its decoder (venue id, markets,
/// change basis, and which fields give a ticker's time).
///
/// Stream notes, common to both venues (docs.upbit.com/kr/reference/websocket-ticker;
/// apidocs.bithumb.com; repo nemanull/arbitrage-observatory, docs/profiles/bithumb/websocket.md):
/// - One request is a JSON array `[{"ticket":...},{"type":"ticker","codes":[...]},{"format":
///   "DEFAULT"}]`, codes upper case. A new request replaces the socket's whole subscription, so
///   every market of a connection goes in one message.
/// - Frames are binary (UTF-8 JSON). A ticker frame has REST's ticker fields with the market
///   under `code` (REST says `market`); prices are JSON numbers, exponents included.
/// - `{"status":"UP"}` answers the text keep-alive `PING` every 10 s; there is no
///   acknowledgement. An error is `{"error":{"name":"NO_CODES","message":"..."}}`, then a close.
public struct UpbitShapeTickerStream: TickerStreamCodec {
    /// The decoder of the venue's tickers, with the stream's time fields.
    public var decoder: UpbitShapeDecoder
    /// The request's ticket: the venues ask for an identifier of the requester, not a unique one.
    public var ticket: String

    public init(decoder: UpbitShapeDecoder, ticket: String = "agg") {
        self.decoder = decoder
        self.ticket = ticket
    }

    /// The stream rules the Upbit-shaped venues share, with the venue's URL and its connection
    /// quota (the one figure they publish differently).
    ///
    /// - The text `PING` keeps the socket open and brings `{"status":"UP"}` every 10 s; the
    ///   documented idle close is ~120 s, but idle sockets closed at 60 s (repo
    ///   nemanull/arbitrage-observatory, docs/profiles/{upbit,bithumb}/websocket.md): a PING
    ///   every 20 s.
    /// - Three missed status frames (30 s) is a dead stream: a quiet market can send no ticker
    ///   for minutes, the status frames keep coming.
    /// - Markets per connection are undocumented: 200 codes keep one request small (Bithumb
    ///   served 493, the same profile §3). A request replaces the socket's whole subscription,
    ///   so all of a connection's markets go in one message.
    /// - Client messages: Upbit allows 5 a second and 100 a minute per connection (docs
    ///   reference/rate-limits), Bithumb does not say: one a second, keep-alives included,
    ///   stays under both.
    public static func descriptor(url: String, connectionsPerSecond: Int) -> StreamDescriptor {
        StreamDescriptor(
            url: url, keepAlive: .message(.text("PING"), every: .seconds(20)), silenceLimit: .seconds(30),
            quotas: StreamQuotas(
                marketsPerConnection: 200, marketsPerMessage: 200, messagesPerSecond: 1,
                connectionsPerWindow: connectionsPerSecond, connectionWindow: .seconds(1)))
    }

    /// One request naming every market (a second one would replace the first).
    public func subscribeMessages(for markets: [Market]) -> [StreamMessage] {
        guard !markets.isEmpty else { return [] }
        // Codes are validated asset codes (letters and digits), so nothing needs escaping.
        let codes = markets.map { "\"" + UpbitShapeMarkets.code($0) + "\"" }.joined(separator: ",")
        return [.text(#"[{"ticket":"\#(ticket)"},{"type":"ticker","codes":[\#(codes)]},{"format":"DEFAULT"}]"#)]
    }

    /// A `ticker` frame is a quote; `{"status":...}` and other types are control; `{"error":...}`
    /// is the venue refusing the request.
    public func read(_ message: StreamMessage, receivedAt: Timestamp) -> StreamReading {
        do throws(JSONDecodingError) {
            let root = try message.jsonObject()
            if let refusal = UpbitShapeDecoder.streamError(root) { return refusal }
            // Only tickers are asked for; a status, or a type the venue adds, says nothing.
            guard try root["type"].optionalString() == "ticker" else { return .control }
            var quote = try decoder.quote(root, codeKey: "code")
            quote.receivedAt = receivedAt
            return .quotes([quote], skipped: [])
        } catch {
            return .malformed(error.description)
        }
    }
}

extension UpbitShapeDecoder {
    /// The venue's error frame, `{"error":{"name":"NO_CODES","message":"..."}}` (`name` a string
    /// or a number), as a refusal; `nil` when the frame is not one.
    static func streamError(_ root: JSONCursor) -> StreamReading? {
        let error = root["error"]
        guard error.isObject else { return nil }
        return .refused(code: (try? error["name"].text()) ?? "", message: (try? error["message"].text()) ?? "")
    }
}
