import AggCore
import AggJSON

extension KorbitAdapter {
    /// Korbit's public stream, v2, now under the Digital X name
    /// (docs.digitalx.miraeasset.com; the former `wss://ws-api.korbit.co.kr/v2/public` "still
    /// accepts connections on the same paths").
    static let stream = StreamDescriptor(
        url: "wss://ws-api.digitalx.miraeasset.com/v2/public",
        // Keep-alive undocumented; the server pings every 30 s (payload `ping`) and the client
        // answers (repo nemanull/arbitrage-observatory, docs/profiles/digital-x/websocket.md
        // §5). A client ping every 20 s brings pongs that prove the socket alive on quiet pairs.
        keepAlive: .pingFrame(every: .seconds(20)),
        // Two keep-alive rounds; a quiet pair can send no ticker for minutes.
        silenceLimit: .seconds(45),
        quotas: StreamQuotas(
            // Undocumented; 193 symbols in one request were served (that profile, §3).
            marketsPerConnection: 200,
            // One request object names every symbol of the connection (that profile, §3).
            marketsPerMessage: 200,
            // Undocumented: one a second, keep-alives included.
            messagesPerSecond: 1,
            // Undocumented; 14 opens drew no refusal (that profile, §3): 5 a second.
            connectionsPerWindow: 5, connectionWindow: .seconds(1)))
}

/// Korbit's ticker stream: one subscribe request (an array of request objects) for every
/// symbol, frames dispatched on `status` (control) or `type` (data).
///
/// Stream notes (docs.digitalx.miraeasset.com; the profile above):
/// - Symbols are lower case and case sensitive (`btc_krw`); a bare object instead of the array
///   gets `{"status":"fail","message":"invalid_format"}`.
/// - Control frames carry `status`: `{"status":"success","requestId":1}` when a `requestId`
///   was sent, `{"status":"fail","code":"INVALID_SYMBOL","message":"...","requestId":2}`.
/// - Data frames carry `type` and `symbol` beside `timestamp` (the server's time) and `data`,
///   the REST ticker's fields (strings, `lastTradedAt` ms); `snapshot` is `true` on the first
///   frame, `false`, `null` or absent after it.
struct KorbitTickerStream: TickerStreamCodec {
    func subscribeMessages(for markets: [Market]) -> [StreamMessage] {
        guard !markets.isEmpty else { return [] }
        // Symbols are validated asset codes (letters and digits), so nothing needs escaping.
        let symbols = markets.map { "\"" + APIRouter.symbol($0) + "\"" }.joined(separator: ",")
        return [.text(#"[{"method":"subscribe","type":"ticker","symbols":[\#(symbols)]}]"#)]
    }

    func read(_ message: StreamMessage, receivedAt: Timestamp) -> StreamReading {
        do throws(JSONDecodingError) {
            let root = try message.jsonObject()
            if let status = try root["status"].optionalString() {
                guard status == "fail" else { return .control }
                let message = (try? root["message"].text()) ?? ""
                return .refused(code: (try? root["code"].text()) ?? message, message: message)
            }
            let typeField = root["type"]
            guard typeField.isPresent else { throw root.failure("expected a \"status\" or a \"type\"") }
            guard try typeField.string() == "ticker" else { return .control }
            let symbolField = root["symbol"]
            let symbol = try symbolField.string()
            guard let market = APIRouter.market(fromSymbol: symbol) else {
                throw symbolField.failure("unknown symbol '\(symbol.prefix(40))'")
            }
            // Missing means false; only its type is checked, as agg keeps no book of frames.
            let snapshot = root["snapshot"]
            if snapshot.isPresent { _ = try snapshot.bool() }
            var quote = try KorbitDecoding.quote(root["data"], market: market)
            if quote.timestamp == nil { quote.timestamp = try root["timestamp"].optionalVenueTime() }
            quote.receivedAt = receivedAt
            return .quotes([quote], skipped: [])
        } catch {
            return .malformed(error.description)
        }
    }
}
