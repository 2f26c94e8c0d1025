import AggCore
import AggJSON
import AggTestKit
import Foundation
import Testing

@testable import Bithumb

@Suite("The fast decoder agrees with Foundation")
struct FoundationAgreementTests {
    @Test("ALL_KRW: every one of the 480 quotes is identical, field by field")
    func allTickers() throws {
        let body = try Fixtures.bytes("bithumb/ticker_ALL_KRW.json")
        let fast = try BithumbDecoding.quotes(
            data: JSONCursor(try JSONParser.parse(body))["data"], shape: .all(payment: "KRW")
        ).values.sorted { $0.market < $1.market }
        let reference = try BithumbFoundationDecoding.allQuotes(body, payment: "KRW")
        #expect(fast.count == 480)
        #expect(fast == reference)
        #expect(fast.map { $0.quoteVolume?.description } == reference.map { $0.quoteVolume?.description })
    }

    @Test("an ALL answer without a date: identical, with no timestamp")
    func allWithoutDate() throws {
        let body = try Fixtures.bytes("bithumb/ticker_ALL_KRW_nodate.json")
        let fast = try BithumbDecoding.quotes(
            data: JSONCursor(try JSONParser.parse(body))["data"], shape: .all(payment: "KRW")
        ).values.sorted { $0.market < $1.market }
        #expect(fast.count == 3)
        #expect(fast == (try BithumbFoundationDecoding.allQuotes(body, payment: "KRW")))
    }

    @Test(
        "single tickers are identical",
        arguments: [
            ("ticker_BTC_KRW.json", "BTC", "KRW"), ("ticker_ETH_KRW.json", "ETH", "KRW"),
            ("ticker_ETH_BTC.json", "ETH", "BTC"),
        ])
    func single(file: String, base: String, quote: String) throws {
        let body = try Fixtures.bytes("bithumb/" + file)
        let market = Market(base: base, quote: quote)
        let fast = try BithumbDecoding.quotes(
            data: JSONCursor(try JSONParser.parse(body))["data"], shape: .single(market)
        ).values
        #expect(fast == [try BithumbFoundationDecoding.quote(body, market: market)])
    }
}
