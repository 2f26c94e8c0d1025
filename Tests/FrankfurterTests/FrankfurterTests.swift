import AggCore
import AggJSON
import AggTestKit
import Foundation
import Testing

@testable import Frankfurter

// What Frankfurter answers from its recordings (every capability, exact values, requests and errors)
// is data: Fixtures/frankfurter/expectations.json, run by VenueExpectationTests. These are its quirks.

private let bed = AdapterTestBed(FrankfurterAdapter.self)
private let base = bed.baseURL

/// An instant written as ISO 8601 in UTC to the second (`2024-08-07T14:00:00Z`).
private func utc(_ text: String) -> Timestamp {
    Timestamp(
        millisecondsSince1970: Int64((ISO8601DateFormatter().date(from: text)?.timeIntervalSince1970 ?? 0) * 1000))
}

/// An answer in Frankfurter's shape with `rates` as the JSON text of the rates object.
private func answer(base code: String = "USD", date: String = "2024-08-07", amount: String = "1.0", rates: String)
    -> String
{
    #"{"amount":\#(amount),"base":"\#(code)","date":"\#(date)","rates":\#(rates)}"#
}

@Suite("Frankfurter router")
struct FrankfurterRouterTests {
    @Test("the latest endpoint's URL, under the default and an overriding base URL")
    func url() {
        #expect(APIRouter.latest(base: "USD").url(baseURL: base) == "https://api.frankfurter.dev/v1/latest?base=USD")
        #expect(
            APIRouter.latest(base: "KRW").url(baseURL: "http://127.0.0.1:8080/frankfurter")
                == "http://127.0.0.1:8080/frankfurter/v1/latest?base=KRW")
    }

}

@Suite("ECB publication calendar")
struct ECBCalendarTests {
    @Test(
        "16:00 Frankfurt time is 14:00 UTC in summer time and 15:00 UTC otherwise",
        arguments: [
            ("2024-08-07", "2024-08-07T14:00:00Z"),
            ("2024-01-15", "2024-01-15T15:00:00Z"),
            // Summer time starts on the last Sunday of March (2024-03-31) and ends on the last
            // Sunday of October (2024-10-27), at 01:00 UTC: 16:00 on either Sunday is on the new time.
            ("2024-03-29", "2024-03-29T15:00:00Z"),
            ("2024-03-31", "2024-03-31T14:00:00Z"),
            ("2024-04-02", "2024-04-02T14:00:00Z"),
            ("2024-10-25", "2024-10-25T14:00:00Z"),
            ("2024-10-27", "2024-10-27T15:00:00Z"),
            ("2024-10-28", "2024-10-28T15:00:00Z"),
            ("2025-03-28", "2025-03-28T15:00:00Z"),
            ("2025-03-31", "2025-03-31T14:00:00Z"),
        ])
    func publication(date: String, expected: String) throws {
        let day = try #require(ECBCalendar.Day(date))
        #expect(ECBCalendar.publication(on: day) == utc(expected))
    }

    @Test(
        "the next publication is on the next weekday: Friday's is followed by Monday's",
        arguments: [
            ("2024-08-07", "2024-08-08T14:00:00Z"),
            ("2024-08-09", "2024-08-12T14:00:00Z"),
            ("2024-08-10", "2024-08-12T14:00:00Z"),
            ("2024-10-25", "2024-10-28T15:00:00Z"),
            ("2024-12-31", "2025-01-01T15:00:00Z"),
        ])
    func next(date: String, expected: String) throws {
        let day = try #require(ECBCalendar.Day(date))
        #expect(ECBCalendar.nextPublication(after: day) == utc(expected))
    }

    @Test(
        "a date is exactly YYYY-MM-DD and real",
        arguments: ["2024-8-07", "2024-08-07T00:00", "2024-02-30", "2024-13-01", "20240807", "", "2024-08-0x"])
    func badDates(text: String) {
        #expect(ECBCalendar.Day(text) == nil)
    }
}

@Suite("Frankfurter decoding")
struct FrankfurterDecodingTests {
    /// One row per sample answer: base, how many rates (the base added), and rates as the
    /// exact text the JSON numbers hold.
    static let answers: [(String, Int, [(String, String)])] = [
        (
            "USD", 31,
            [
                ("USD", "1"), ("KRW", "1373.59"), ("EUR", "0.91567"), ("JPY", "146.53"), ("IDR", "16081"),
                ("CNY", "7.1683"), ("BRL", "5.578"), ("CHF", "0.85633"),
            ]
        ),
        ("EUR", 31, [("EUR", "1"), ("USD", "1.0921"), ("KRW", "1500.1"), ("IDR", "17561.63"), ("ISK", "150.7")]),
        ("KRW", 31, [("KRW", "1"), ("USD", "0.00073"), ("JPY", "0.10667"), ("IDR", "11.707")]),
        // Frankfurter writes its smallest rates with an exponent.
        ("IDR", 31, [("IDR", "1"), ("USD", "0.000062"), ("EUR", "0.000057"), ("NZD", "0.0001"), ("KRW", "0.08542")]),
    ]

    @Test("a Saturday's answer carries Friday's date: as of Friday 16:00 CEST, next update Monday's")
    func weekend() async throws {
        let client = ScriptedHTTPClient(body: answer(date: "2024-08-09", rates: #"{"KRW":1368.2}"#))
        let table = try await bed.adapter(client).rates(base: "USD")
        #expect(table.asOf.iso8601Seconds == "2024-08-09T14:00:00Z")
        #expect(table.nextUpdate?.iso8601Seconds == "2024-08-12T14:00:00Z")
        #expect(table.rates == ["KRW": decimal("1368.2"), "USD": 1])
    }

    @Test(
        "a zero, negative or absurd rate is refused for its currency; the others stay",
        arguments: [
            ("0", "0", "an exchange rate must be above zero"),
            ("0.0", "0", "an exchange rate must be above zero"),
            ("-1373.59", "-1373.59", "an exchange rate must be above zero"),
            ("1e13", "10000000000000", "outside 1e-12 to 1e12, the range of plausible exchange rates"),
            ("1e-13", "0.0000000000001", "outside 1e-12 to 1e12, the range of plausible exchange rates"),
        ])
    func refused(rate: String, text: String, reason: String) async throws {
        let client = ScriptedHTTPClient(body: answer(rates: #"{"EUR":0.91567,"KRW":\#(rate),"JPY":146.53}"#))
        let table = try await bed.adapter(client).rates(base: "USD")
        #expect(table.rates == ["EUR": decimal("0.91567"), "JPY": decimal("146.53"), "USD": 1])
        #expect(table.refused == [RateRefusal(code: "KRW", text: text, reason: reason)])
    }

    @Test(
        "answers that are not what Frankfurter documents are decoding errors at their path",
        arguments: [
            (answer(base: "EUR", rates: "{}"), "$.base", "asked for rates from USD, the answer is from EUR"),
            (answer(date: "2024-08-32", rates: "{}"), "$.date", "'2024-08-32' is not a YYYY-MM-DD date"),
            (answer(date: "07.08.2024", rates: "{}"), "$.date", "'07.08.2024' is not a YYYY-MM-DD date"),
            (answer(amount: "10.0", rates: "{}"), "$.amount", "expected rates for an amount of 1"),
            (answer(rates: "[]"), "$.rates", "expected an object, found an array"),
            (#"{"amount":1.0,"date":"2024-08-07","rates":{}}"#, "$.base", "expected a string, found nothing"),
        ])
    func malformed(body: String, path: String, detail: String) async {
        await #expect(throws: AggError.decoding(venue: "frankfurter", path: path, detail: detail)) {
            try await bed.adapter(ScriptedHTTPClient(body: body)).rates(base: "USD")
        }
    }

    @Test("keys that are not three capital letters are skipped, not fatal")
    func oddKeys() async throws {
        let client = ScriptedHTTPClient(body: answer(rates: #"{"KRW":1373.59,"krw":1,"XAUX":2,"1AB":3}"#))
        let table = try await bed.adapter(client).rates(base: "USD")
        #expect(table.rates == ["KRW": decimal("1373.59"), "USD": 1])
    }

    @Test("HTTP 429 is a rate limit; a 500 without a message is an HTTP error")
    func statuses() async {
        await #expect(throws: AggError.rateLimited(venue: "frankfurter", retryAfterSeconds: nil)) {
            try await bed.adapter(ScriptedHTTPClient(status: 429, body: "{}")).rates(base: "USD")
        }
        await #expect(
            throws: AggError.http(
                venue: "frankfurter", status: 500, url: "https://api.frankfurter.dev/v1/latest?base=USD")
        ) {
            try await bed.adapter(ScriptedHTTPClient(status: 500, body: "{}")).rates(base: "USD")
        }
    }

    @Test("an FX source only: a ticker is unsupported")
    func unsupported() async throws {
        let frankfurter = bed.adapter(try bed.recorded())
        await #expect(throws: AggError.unsupported(venue: "frankfurter", capability: .ticker)) {
            try await frankfurter.quote(for: Market(base: "BTC", quote: "USD"))
        }
    }
}
