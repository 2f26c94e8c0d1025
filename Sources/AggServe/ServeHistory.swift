import AggCore
import AggJSON
import AggOptions
import AggServer
import FoundationEssentials

/// `/v1/history?symbol=BTC&since=24h[&exchange=...]`: the recorded prices and premiums of one
/// coin from the history store, oldest first.
enum ServeHistory {
    /// The longest `since`: a year.
    static let maximumSeconds: Int64 = 366 * 86_400

    /// The query, validated: the coin, the venues, and the start.
    static func query(_ arguments: [HTTPServerRequest.Argument], now: Timestamp, registry: AdapterRegistry)
        throws(AggError) -> HistoryQuery
    {
        var values: [String: String] = [:]
        for argument in arguments {
            guard ServeEndpoints.historyQuery.options[argument.name] != nil else {
                throw .usage(
                    "unknown query parameter '\(ServeEndpoints.printable(argument.name))'; this endpoint takes "
                        + ServeEndpoints.historyQuery.names.joined(separator: ", "))
            }
            guard values[argument.name] == nil else {
                throw .usage("query parameter '\(argument.name)' is given twice; separate values with commas")
            }
            guard let value = argument.value, !value.isEmpty else {
                throw .usage("query parameter '\(argument.name)' needs a value")
            }
            values[argument.name] = value
        }
        guard let symbol = values["symbol"] else { throw .usage("name a symbol: /v1/history?symbol=BTC&since=24h") }
        let coin = try AssetCode.validate(symbol)
        let sinceText = values["since"] ?? "24h"
        guard let seconds = DurationText.seconds(from: sinceText),
            seconds > 0, seconds <= maximumSeconds
        else {
            throw .usage(
                "invalid since '\(ServeEndpoints.printable(sinceText))': expected a duration such as 30m, 24h or 7d, up to 366d"
            )
        }
        var exchanges: [String] = []
        for id in (values["exchange"] ?? "").split(separator: ",").map(String.init) {
            exchanges.append(try registry.requireDescriptor(id: id).id)
        }
        return HistoryQuery(
            symbol: coin, exchanges: exchanges,
            since: Timestamp(millisecondsSince1970: now.millisecondsSince1970 - seconds * 1000))
    }

    /// `{"symbol","since","prices":[{"time","exchange","symbol","last","baseVolume"}],
    /// "premiums":[{"time","exchange","symbol","basis","fxSource","percent"}]}` and a newline.
    static func json(query: HistoryQuery, prices: [PricePoint], premiums: [PremiumPoint]) -> String {
        var json = JSONWriter(capacity: 96 * (prices.count + premiums.count) + 64)
        json.beginObject()
        json.member("symbol", string: query.symbol)
        json.member("since", time: query.since)
        json.key("prices")
        json.beginArray()
        for point in prices {
            json.beginObject()
            json.member("time", time: point.time)
            json.member("exchange", string: point.exchange)
            json.member("symbol", string: point.market.description)
            json.member("last", decimal: point.last)
            json.member("baseVolume", decimal: point.baseVolume)
            json.endObject()
        }
        json.endArray()
        json.key("premiums")
        json.beginArray()
        for point in premiums {
            json.beginObject()
            json.member("time", time: point.time)
            json.member("exchange", string: point.exchange)
            json.member("symbol", string: point.symbol)
            json.member("basis", string: point.basis)
            json.member("fxSource", string: point.fxSource)
            json.member("percent", decimal: point.percent)
            json.endObject()
        }
        json.endArray()
        json.endObject()
        json.newline()
        return json.text
    }
}
