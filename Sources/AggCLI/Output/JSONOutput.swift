import AggCore
import AggJSON
import FoundationEssentials

/// The JSON shapes shared by commands. Decimals are strings holding the exact value, absent
/// values are `null`, timestamps are ISO-8601 UTC with milliseconds.
public enum JSONOutput {
    public static func decimal(_ value: Decimal?) -> JSONValue {
        value.map { .string($0.description) } ?? .null
    }

    public static func string(_ value: String?) -> JSONValue {
        value.map { .string($0) } ?? .null
    }

    public static func time(_ value: Timestamp?) -> JSONValue {
        value.map { .string($0.description) } ?? .null
    }

    /// `{"exchange","symbol","base","quote","last",...,"changeBasis",...,"timestamp"}`;
    /// `changeBasis` is `rolling24h`, `sinceUTCMidnight` or `null`.
    public static func quote(_ quote: Quote) -> JSONValue {
        [
            "exchange": .string(quote.exchange),
            "symbol": .string(quote.market.description),
            "base": .string(quote.market.base),
            "quote": .string(quote.market.quote),
            "last": decimal(quote.last),
            "open": decimal(quote.open),
            "high": decimal(quote.high),
            "low": decimal(quote.low),
            "previousClose": decimal(quote.previousClose),
            "change": decimal(quote.change),
            "changePercent": decimal(quote.changePercent),
            "changeBasis": string(quote.changeBasis?.rawValue),
            "baseVolume": decimal(quote.baseVolume),
            "quoteVolume": decimal(quote.quoteVolume),
            "timestamp": time(quote.timestamp),
        ]
    }

    /// A cached quote shown in place of a venue that failed: the quote's shape followed by
    /// `"stale":true,"ageSeconds":N` (whole seconds since it was fetched).
    public static func staleQuote(_ quote: Quote, ageSeconds: Int64) -> JSONValue {
        guard case .object(let object) = Self.quote(quote) else { return Self.quote(quote) }
        return .object(
            JSONObject(
                object.members + [
                    .init(key: "stale", value: .bool(true)),
                    .init(key: "ageSeconds", value: .number(String(ageSeconds))),
                ]))
    }

    /// `{"exchange","symbol","kind","code","message"}`; `symbol` is left out when `nil`.
    public static func error(_ error: AggError, exchange: String?, symbol: String?) -> JSONValue {
        var members: [JSONObject.Member] = [
            .init(key: "exchange", value: string(exchange ?? error.venue))
        ]
        if let symbol { members.append(.init(key: "symbol", value: .string(symbol))) }
        members += [
            .init(key: "kind", value: .string(error.kind)),
            .init(key: "code", value: string(error.code)),
            .init(key: "message", value: .string(error.message)),
        ]
        return .object(JSONObject(members))
    }
}
