import AggCore
import AggJSON
import AggTestKit
import Testing

@testable import Binance

/// Rule 1 of issue 20 for Binance's symbol list (`/api/v3/exchangeInfo`, read by `agg search`,
/// `agg exchanges` and the premium board): each row breaks BTCUSDT's entry of the recorded
/// answer one way; the list still gives every other symbol, exactly, and reports the broken
/// entry once, with its market and the JSON path of the value that failed.
@Suite("Binance: one bad entry of the symbol list costs that entry")
struct BinanceBulkEntryTests {
    static let file = "binance/exchange_info.json"
    static let btc = Market(base: "BTC", quote: "USDT")

    /// The recorded list: trading symbols in the quotes agg asks Binance for (BCCBTC is on a
    /// break, BTCTRY is in lira).
    static let recorded = [
        MarketListing(exchange: "binance", market: Market(base: "ETH", quote: "BTC"), venueSymbol: "ETHBTC"),
        MarketListing(exchange: "binance", market: btc, venueSymbol: "BTCUSDT"),
        MarketListing(exchange: "binance", market: Market(base: "ETH", quote: "USDT"), venueSymbol: "ETHUSDT"),
        MarketListing(exchange: "binance", market: Market(base: "BTC", quote: "FDUSD"), venueSymbol: "BTCFDUSD"),
        MarketListing(
            exchange: "binance", market: Market(base: "1000SATS", quote: "USDT"), venueSymbol: "1000SATSUSDT"),
    ]

    static func list(_ body: String) async -> MarketList {
        await AdapterTestBed(BinanceAdapter.self).adapter(ScriptedHTTPClient(body: body)).marketList(quotedIn: nil)
    }

    @Test("the recorded list answers whole")
    func whole() async throws {
        let list = await Self.list(try JSONDamage.recorded(Self.file))
        #expect(list == MarketList(listings: Self.recorded))
    }

    /// The member of BTCUSDT's entry damaged, its new value (`nil`: removed), the entry's name
    /// in the report, and the reason.
    static let damage: [(key: String, value: JSONValue?, entry: String, reason: String)] = [
        ("baseAsset", nil, "BTCUSDT", "expected a string, found nothing"),
        ("quoteAsset", .number("5"), "BTCUSDT", "expected a string, found a number"),
        ("status", .bool(true), "BTCUSDT", "expected a string, found a boolean"),
        ("baseAsset", "B\"TC", "BTCUSDT", "'B\"TC' is not a coin code"),
        ("baseAsset", "BT\u{1B}C", "BTCUSDT", "'BT\u{1B}C' is not a coin code"),
        ("baseAsset", "", "BTCUSDT", "'' is not a coin code"),
        ("symbol", "BTC\"USDT", "BTC\"USDT", "'BTC\"USDT' is not BTC and USDT written together"),
        ("symbol", .number("1"), "1", "expected a string, found a number"),
    ]

    @Test("a damaged entry is skipped and reported with its market and path; the others answer", arguments: damage)
    func damaged(key: String, value: JSONValue?, entry: String, reason: String) async throws {
        let body = try JSONDamage.recorded(Self.file, at: [.key("symbols"), .index(1), .key(key)], with: value)
        let list = await Self.list(body)
        #expect(list.failures == [])
        #expect(list.listings == Self.recorded.filter { $0.market != Self.btc })
        #expect(
            list.skipped == [
                SkippedEntry(
                    venue: "binance", entry: entry, market: Self.btc, path: "$.symbols[1].\(key)", reason: reason)
            ])
    }
}
