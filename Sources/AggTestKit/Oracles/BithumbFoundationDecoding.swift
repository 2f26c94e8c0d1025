import AggCore
import Foundation

/// A second, independent decoding of Bithumb tickers through Foundation's `JSONDecoder` and
/// `Decimal(string:)`: a test oracle, not part of agg.
///
/// agg decodes with its own parser because Foundation is several times slower on the 150 KB
/// ALL answer. This path exists to prove the two agree: the Bithumb tests run both on every
/// ticker fixture and require identical quotes, and `agg-bench` times both.
public enum BithumbFoundationDecoding {
    /// The venue id the quotes carry.
    static let venue = "bithumb"

    struct Envelope: Decodable {
        var status: String
        var data: Payload
    }

    /// `data` of ALL: coin codes to tickers, plus a `date` string and possibly other values.
    struct Payload: Decodable {
        var tickers: [String: Ticker]
        var date: String?

        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            var tickers: [String: Ticker] = [:]
            for key in container.allKeys where key.stringValue != "date" {
                if let ticker = try? container.decode(Ticker.self, forKey: key) { tickers[key.stringValue] = ticker }
            }
            self.tickers = tickers
            date = try container.decodeIfPresent(String.self, forKey: Key(stringValue: "date"))
        }
    }

    struct Ticker: Decodable {
        var opening_price: String
        var closing_price: String
        var min_price: String
        var max_price: String
        var prev_closing_price: String
        var units_traded_24H: String
        var acc_trade_value_24H: String
        var fluctate_24H: String
        var fluctate_rate_24H: String
        var date: String?
    }

    /// Why the Foundation path could not decode a body.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// The quotes of an ALL answer, sorted by market; without a `date`, they have no timestamp.
    public static func allQuotes(_ body: [UInt8], payment: String) throws -> [Quote] {
        let envelope = try JSONDecoder().decode(Envelope.self, from: Data(body))
        let milliseconds = try milliseconds(envelope.data.date)
        return try envelope.data.tickers.filter { AssetCode.isNormalized($0.key) }.map { coin, ticker in
            try quote(ticker, market: Market(base: coin, quote: payment), milliseconds: milliseconds)
        }.sorted { $0.market < $1.market }
    }

    /// The quote of a single-coin answer.
    public static func quote(_ body: [UInt8], market: Market) throws -> Quote {
        struct Single: Decodable { var data: Ticker }
        let ticker = try JSONDecoder().decode(Single.self, from: Data(body)).data
        return try quote(ticker, market: market, milliseconds: milliseconds(ticker.date))
    }

    /// The epoch milliseconds of a `date` field; `nil` when there is none.
    private static func milliseconds(_ date: String?) throws -> Int64? {
        guard let date else { return nil }
        guard let milliseconds = Int64(date) else { throw Failure(description: "'\(date)' is not a date") }
        return milliseconds
    }

    private static func quote(_ ticker: Ticker, market: Market, milliseconds: Int64?) throws -> Quote {
        func decimal(_ text: String) throws -> Decimal {
            guard let value = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) else {
                throw Failure(description: "'\(text)' is not a decimal")
            }
            return value
        }
        return Quote(
            exchange: venue, market: market, last: try decimal(ticker.closing_price),
            open: try decimal(ticker.opening_price), high: try decimal(ticker.max_price),
            low: try decimal(ticker.min_price), previousClose: try decimal(ticker.prev_closing_price),
            change: try decimal(ticker.fluctate_24H), changePercent: try decimal(ticker.fluctate_rate_24H),
            changeBasis: .rolling24h,
            baseVolume: try decimal(ticker.units_traded_24H), quoteVolume: try decimal(ticker.acc_trade_value_24H),
            timestamp: milliseconds.map(Timestamp.init(millisecondsSince1970:)))
    }
}
