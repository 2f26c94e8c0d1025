import AggCore
import AggJSON
import AggTestKit
import Foundation
import Testing

@testable import Dunamu

// What Dunamu answers from its recordings (every capability, exact values, requests and errors)
// is data: Fixtures/dunamu/expectations.json, run by VenueExpectationTests. These are its quirks.

private let bed = AdapterTestBed(DunamuAdapter.self)
private let base = bed.baseURL

/// A one-quote answer in Dunamu's shape with the fields that matter here.
private func answer(
    code: String = "FRX.KRWUSD", currency: String = "USD", price: String = "1372.50", unit: String = "1",
    timestamp: String = "1723104731527"
) -> String {
    """
    [{"code":"\(code)","currencyCode":"\(currency)","date":"2024-08-08","time":"17:12:05",\
    "basePrice":\(price),"currencyUnit":\(unit),"provider":"하나은행","timestamp":\(timestamp)}]
    """
}

@Suite("Dunamu router and descriptor")
struct DunamuRouterTests {
    @Test("the recent endpoint's URL asks for the KRW price of one currency")
    func url() {
        #expect(
            APIRouter.recent(currency: "USD").url(baseURL: base)
                == "https://quotation-api-cdn.dunamu.com/v1/forex/recent?codes=FRX.KRWUSD")
        #expect(
            APIRouter.recent(currency: "JPY").url(baseURL: "http://127.0.0.1:8080/dunamu")
                == "http://127.0.0.1:8080/dunamu/v1/forex/recent?codes=FRX.KRWJPY")
    }

    @Test("the descriptor declares an FX source to KRW that quotes no markets, with its credit")
    func descriptor() {
        let descriptor = DunamuAdapter.descriptor
        #expect(descriptor.id == "dunamu")
        #expect(descriptor.capabilities == [.fxRates])
        #expect(descriptor.quoteCurrencies.isEmpty)
        #expect(descriptor.homeCurrency == "KRW")
        #expect(descriptor.baseURLVariable == "AGG_DUNAMU_URL")
        #expect(
            descriptor.attribution
                == "Hana Bank exchange rates via Dunamu (unofficial; https://quotation-api-cdn.dunamu.com)")
    }
}

@Suite("Dunamu decoding")
struct DunamuDecodingTests {
    /// One row per sample answer: base, the exact KRW rate of one unit, and `timestamp`.
    static let answers: [(String, String, Int64)] = [
        ("USD", "1372.5", 1_723_104_731_527),
        // JPY is quoted per 100 yen: 936.85 / 100, exactly.
        ("JPY", "9.3685", 1_723_104_731_611),
        ("EUR", "1502.36", 1_723_104_731_604),
        ("CNY", "191.35", 1_723_104_731_598),
    ]

    @Test("an empty list (Dunamu's answer to an unknown code) is a clear venue error")
    func empty() async throws {
        let client = ScriptedHTTPClient(
            body: String(decoding: try Fixtures.bytes("dunamu/recent_empty.json"), as: UTF8.self))
        await #expect(
            throws: AggError.venue(
                venue: "dunamu", code: "empty",
                message: "no quote for FRX.KRWGBP in the answer (Dunamu answers an unknown code with an empty list)")
        ) {
            try await bed.adapter(client).rates(base: "GBP")
        }
    }

    @Test("a quote for another code is not taken for the one asked for")
    func otherCode() async {
        let client = ScriptedHTTPClient(body: answer(code: "FRX.KRWJPY", currency: "JPY"))
        await #expect(
            throws: AggError.venue(
                venue: "dunamu", code: "empty",
                message: "no quote for FRX.KRWUSD in the answer (Dunamu answers an unknown code with an empty list)")
        ) {
            try await bed.adapter(client).rates(base: "USD")
        }
    }

    @Test(
        "a zero, negative or absurd price is refused for KRW; the table keeps its base",
        arguments: [
            ("0", "1", "0", "an exchange rate must be above zero"),
            ("-1372.5", "1", "-1372.5", "an exchange rate must be above zero"),
            ("1372500000000", "1", "1372500000000", "outside 1e-12 to 1e12, the range of plausible exchange rates"),
            (
                "0.00000000001", "100", "0.0000000000001",
                "outside 1e-12 to 1e12, the range of plausible exchange rates"
            ),
        ])
    func refused(price: String, unit: String, text: String, reason: String) async throws {
        let table = try await bed.adapter(ScriptedHTTPClient(body: answer(price: price, unit: unit))).rates(base: "USD")
        #expect(table.rates == ["USD": 1])
        #expect(table.refused == [RateRefusal(code: "KRW", text: text, reason: reason)])
    }

    @Test(
        "answers not in Dunamu's shape are decoding errors at their path",
        arguments: [
            (answer(currency: "JPY"), "$[0].currencyCode", "asked for USD, the quote is for JPY"),
            (answer(unit: "3"), "$[0].currencyUnit", "a unit of 3 is not a power of ten"),
            (answer(unit: "0"), "$[0].currencyUnit", "a unit of 0 is not a power of ten"),
            (answer(timestamp: "\"soon\""), "$[0].timestamp", "'soon' is not a whole number in range"),
            (#"{"error":{"name":"x","message":"y"}}"#, "$", "expected an array, found an object"),
        ])
    func malformed(body: String, path: String, detail: String) async {
        await #expect(throws: AggError.decoding(venue: "dunamu", path: path, detail: detail)) {
            try await bed.adapter(ScriptedHTTPClient(body: body)).rates(base: "USD")
        }
    }

    @Test("a quote without a currency code or unit is read as one unit of the code asked for")
    func lenient() async throws {
        let client = ScriptedHTTPClient(body: #"[{"code":"FRX.KRWUSD","basePrice":1372.5,"timestamp":1723104731527}]"#)
        let table = try await bed.adapter(client).rates(base: "USD")
        #expect(table.rates == ["USD": 1, "KRW": decimal("1372.5")])
    }

    @Test("an FX source only: an order book is unsupported")
    func unsupported() async throws {
        let dunamu = bed.adapter(try bed.recorded())
        await #expect(throws: AggError.unsupported(venue: "dunamu", capability: .orderBook)) {
            try await dunamu.orderBook(for: Market(base: "BTC", quote: "KRW"), depth: 1)
        }
    }
}
