import AggCore
import AggJSON
import FoundationEssentials

/// The JSON shapes shared by commands. Decimals are strings holding the exact value, absent
/// values are `null`, timestamps are ISO-8601 UTC with milliseconds.
package enum JSONOutput {
    static func decimal(_ value: Decimal?) -> JSONValue {
        value.map { .string(DecimalText.format($0)) } ?? .null
    }

    static func string(_ value: String?) -> JSONValue {
        value.map { .string($0) } ?? .null
    }

    static func time(_ value: Timestamp?) -> JSONValue {
        value.map { .string($0.description) } ?? .null
    }

    /// Writes `{"exchange","symbol","base","quote","last",...,"changeBasis",...,"timestamp",
    /// "receivedAt","ageSeconds","stale"}` (`changeBasis` is `rolling24h`, `sinceUTCMidnight` or
    /// `null`; the last three are `QuoteAging`'s). A quote whose source is down (a cached quote
    /// shown in place of a venue that failed) is `"stale":true` whatever its age.
    ///
    /// Quotes are written straight into the output buffer, without a `JSONValue` tree: `--all`
    /// writes hundreds of them.
    static func write(_ quote: Quote, aging: QuoteAging, sourceDown: Bool = false, to json: inout JSONWriter) {
        json.beginObject()
        json.member("exchange", string: quote.exchange)
        json.member("symbol", string: quote.market.description)
        json.member("base", string: quote.market.base)
        json.member("quote", string: quote.market.quote)
        json.member("last", decimal: quote.last)
        json.member("open", decimal: quote.open)
        json.member("high", decimal: quote.high)
        json.member("low", decimal: quote.low)
        json.member("previousClose", decimal: quote.previousClose)
        json.member("change", decimal: quote.change)
        json.member("changePercent", decimal: quote.changePercent)
        json.member("changeBasis", string: quote.changeBasis?.rawValue)
        json.member("baseVolume", decimal: quote.baseVolume)
        json.member("quoteVolume", decimal: quote.quoteVolume)
        json.member("timestamp", time: quote.timestamp)
        aging.write(quote, sourceDown: sourceDown, to: &json)
        json.endObject()
    }

    /// `{"exchange","symbol","kind","code","message"}`; `symbol` is left out when `nil`.
    static func error(_ error: AggError, exchange: String?, symbol: String?) -> JSONValue {
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

extension JSONWriter {
    /// `"key":"2024-08-08T08:12:15.027Z"` (ISO-8601 UTC with milliseconds), or `"key":null`.
    package mutating func member(_ key: StaticString, time: Timestamp?) {
        self.key(key)
        guard let time else { return null() }
        unescapedString { time.appendISO8601(to: &$0) }
    }
}
