import AggCore
import AggJSON
import AggTestKit
import Foundation
import Testing

@testable import ExchangeRate

// What Exchangerate answers from its recordings (every capability, exact values, requests and errors)
// is data: Fixtures/exchangerate/expectations.json, run by VenueExpectationTests. These are its quirks.

private let bed = AdapterTestBed(ExchangeRateAdapter.self)
private let base = bed.baseURL

/// An adapter whose every request is answered with `file` from Fixtures/.
private func serving(_ file: String, status: Int = 200) throws -> (ExchangeRateAdapter, ScriptedHTTPClient) {
    let body = try Fixtures.bytes(file)
    let client = ScriptedHTTPClient { request in
        HTTPResponse(status: status, headers: [], body: body, url: request.url)
    }
    return (bed.adapter(client), client)
}

@Suite("ExchangeRate router and registration")
struct ExchangeRateRouterTests {
    @Test("the latest endpoint's URL, under the default and an overriding base URL")
    func url() {
        #expect(APIRouter.latest(base: "USD").url(baseURL: base) == "https://open.er-api.com/v6/latest/USD")
        #expect(
            APIRouter.latest(base: "KRW").url(baseURL: "http://127.0.0.1:8080/fx")
                == "http://127.0.0.1:8080/fx/v6/latest/KRW")
    }

    @Test("it registers beside the exchanges and is found by its FX capability, not by ticker")
    func registry() {
        var registry = AdapterRegistry()
        registry.register(ExchangeRateAdapter.self)
        #expect(registry.descriptors(supporting: .fxRates).map(\.id) == ["exchangerate"])
        #expect(registry.descriptors(supporting: .ticker).isEmpty)
    }
}

@Suite("ExchangeRate decoding")
struct ExchangeRateDecodingTests {
    /// One row per recorded answer: file, base, `time_last_update_unix`, `time_next_update_unix`,
    /// how many rates, and a few rates as the exact text of the JSON numbers.
    static let answers: [(String, String, Int64, Int64, Int, [(String, String)])] = [
        (
            "exchangerate/USD_2024-08-19.json", "USD", 1_724_025_751, 1_724_112_381, 162,
            [
                ("USD", "1"), ("KRW", "1350.003043"), ("ARS", "944"), ("LBP", "89500"), ("IDR", "15688.05663"),
                ("JPY", "148.042596"), ("EUR", "0.907539"), ("BHD", "0.376"), ("ZWL", "13.7902"),
            ]
        ),
        (
            "exchangerate/USD_2024-08-20.json", "USD", 1_724_112_151, 1_724_198_781, 162,
            [
                ("USD", "1"), ("KRW", "1335.841127"), ("ARS", "945.5"), ("LBP", "89500"), ("CNY", "7.175629"),
                ("JPY", "145.351276"), ("EUR", "0.901844"), ("RUB", "91.454471"),
            ]
        ),
        (
            "exchangerate/USD_2024-08-21.json", "USD", 1_724_198_551, 1_724_285_181, 162,
            [("USD", "1"), ("KRW", "1331.529034"), ("ARS", "946"), ("JPY", "146.282514"), ("INR", "83.920127")]
        ),
        (
            "exchangerate/KRW_2024-08-21.json", "KRW", 1_724_198_551, 1_724_285_181, 162,
            [("KRW", "1"), ("USD", "0.000751016"), ("BHD", "0.000282382"), ("BIF", "2.165229")]
        ),
    ]

    @Test("every recorded answer decodes with exact decimals, integers and decimals alike", arguments: answers)
    func recorded(
        file: String, code: String, lastUpdate: Int64, nextUpdate: Int64, count: Int, samples: [(String, String)]
    ) async throws {
        let (adapter, client) = try serving(file)
        let table = try await adapter.rates(base: code)
        #expect(client.requests.map(\.url) == ["https://open.er-api.com/v6/latest/\(code)"])
        #expect(table.source == "exchangerate")
        #expect(table.base == code)
        #expect(table.asOf == Timestamp(secondsSince1970: lastUpdate))
        #expect(table.nextUpdate == Timestamp(secondsSince1970: nextUpdate))
        #expect(table.rates.count == count)
        #expect(table.rates[code] == 1)
        for (currency, text) in samples {
            #expect(table.rates[currency]?.description == text, "\(currency)")
            #expect(table.rates[currency] == decimal(text), "\(currency)")
        }
    }

    @Test("the timestamps are the provider's update times in UTC")
    func times() async throws {
        let (adapter, _) = try serving("exchangerate/USD_2024-08-19.json")
        let table = try await adapter.rates(base: "USD")
        #expect(table.asOf.iso8601Seconds == "2024-08-19T00:02:31Z")
        #expect(table.nextUpdate?.iso8601Seconds == "2024-08-20T00:06:21Z")
    }

    @Test("keys that are not three capital letters, and rates sent as strings, are refused, not fatal")
    func oddKeys() async throws {
        let client = ScriptedHTTPClient(
            body: """
                {"result":"success","time_last_update_unix":1724198551,"base_code":"USD",
                 "rates":{"USD":1,"usd":2,"BTC2":3,"EUR":0.50,"KRW":"1350.5"}}
                """)
        let table = try await bed.adapter(client).rates(base: "USD")
        #expect(table.rates == ["USD": 1, "EUR": decimal("0.5")])
        #expect(table.refused.map(\.code) == ["BTC2", "KRW", "usd"])
        #expect(table.nextUpdate == nil)
    }
}

@Suite("ExchangeRate: rates that cannot be rates are refused")
struct ExchangeRateValidationTests {
    @Test("zero, negative and absurd rates are left out of the table and listed as refused, with why")
    func refused() async throws {
        let client = ScriptedHTTPClient(
            body: """
                {"result":"success","time_last_update_unix":1724198551,"base_code":"USD",
                 "rates":{"USD":1,"KRW":0,"JPY":-146.28,"EUR":0.897903,"XAU":1e30,"IRR":42166.03064,"XXX":1e-20}}
                """)
        let table = try await bed.adapter(client).rates(base: "USD")
        #expect(table.rates == ["USD": 1, "EUR": decimal("0.897903"), "IRR": decimal("42166.03064")])
        #expect(
            table.refused == [
                RateRefusal(code: "JPY", text: "-146.28", reason: "an exchange rate must be above zero"),
                RateRefusal(code: "KRW", text: "0", reason: "an exchange rate must be above zero"),
                RateRefusal(
                    code: "XAU", text: "1000000000000000000000000000000",
                    reason: "outside 1e-12 to 1e12, the range of plausible exchange rates"),
                RateRefusal(
                    code: "XXX", text: "0.00000000000000000001",
                    reason: "outside 1e-12 to 1e12, the range of plausible exchange rates"),
            ])
        #expect(
            table.refused.map(\.description) == [
                "JPY rate -146.28 refused: an exchange rate must be above zero",
                "KRW rate 0 refused: an exchange rate must be above zero",
                "XAU rate 1000000000000000000000000000000 refused: outside 1e-12 to 1e12, the range of plausible exchange rates",
                "XXX rate 0.00000000000000000001 refused: outside 1e-12 to 1e12, the range of plausible exchange rates",
            ])
    }

    @Test("every recorded answer is plausible throughout: nothing refused")
    func recordedArePlausible() async throws {
        for file in ["USD_2024-08-19.json", "USD_2024-08-20.json", "USD_2024-08-21.json", "KRW_2024-08-21.json"] {
            let (adapter, _) = try serving("exchangerate/" + file)
            let table = try await adapter.rates(base: String(file.prefix(3)))
            #expect(table.refused == [], "\(file)")
            #expect(table.rates.count == 162, "\(file)")
        }
    }
}

@Suite("ExchangeRate errors")
struct ExchangeRateErrorTests {
    @Test(
        "result other than success is a venue error carrying the error type, whatever the HTTP status",
        arguments: [
            ("exchangerate/error_unsupported-code.json", 200, "unsupported-code", "the currency code is not supported"),
            ("exchangerate/error_unsupported-code.json", 404, "unsupported-code", "the currency code is not supported"),
            (
                "exchangerate/error_malformed-request.json", 200, "malformed-request",
                "the request does not have the form the API expects"
            ),
            (
                "exchangerate/error_quota-reached.json", 200, "quota-reached",
                "the request quota is used up; the open access API blocks for about 20 minutes"
            ),
        ])
    func venueErrors(file: String, status: Int, code: String, message: String) async throws {
        let (adapter, _) = try serving(file, status: status)
        await #expect(throws: AggError.venue(venue: "exchangerate", code: code, message: message)) {
            try await adapter.rates(base: "XXX")
        }
    }

    @Test("HTTP 429 is a rate limit whatever the body says, so that callers back off")
    func quotaWith429() async throws {
        let (adapter, _) = try serving("exchangerate/error_quota-reached.json", status: 429)
        await #expect(throws: AggError.rateLimited(venue: "exchangerate", retryAfterSeconds: nil)) {
            try await adapter.rates(base: "USD")
        }
    }

    @Test("the error's one-line description names the source and the error type")
    func description() async throws {
        let (adapter, _) = try serving("exchangerate/error_unsupported-code.json")
        do {
            _ = try await adapter.rates(base: "XXX")
            Issue.record("expected an error")
        } catch {
            #expect(error.description == "exchangerate: error unsupported-code: the currency code is not supported")
            #expect(error.code == "unsupported-code")
            #expect(!error.isUsageError)
        }
    }

    @Test("an unknown error type or none at all is still a venue error")
    func unknownErrorTypes() async {
        let unknown = ScriptedHTTPClient(body: #"{"result":"error","error-type":"something-new"}"#)
        await #expect(
            throws: AggError.venue(
                venue: "exchangerate", code: "something-new", message: "the provider reported an error")
        ) { try await bed.adapter(unknown).rates(base: "USD") }
        let bare = ScriptedHTTPClient(body: #"{"result":"error"}"#)
        await #expect(
            throws: AggError.venue(venue: "exchangerate", code: "error", message: "the provider reported an error")
        ) { try await bed.adapter(bare).rates(base: "USD") }
    }

    @Test(
        "non-2xx answers and broken bodies become typed errors naming the source",
        arguments: [
            (500, "<html><body>Internal Server Error</body></html>", "http"),
            (503, "", "http"),
            (404, "{}", "http"),
            (429, "", "rateLimited"),
            (200, "<html><body>maintenance</body></html>", "decoding"),
            (200, "{}", "decoding"),
            (200, #"{"result":"success","base_code":"USD","rates":{"KRW":1}}"#, "decoding"),
        ])
    func brokenAnswers(status: Int, body: String, kind: String) async {
        let error = await bed.error(status: status, body: body) { try await $0.rates(base: "USD") }
        #expect(error?.kind == kind)
        #expect(error?.venue == "exchangerate")
        #expect(error?.description.contains("\n") == false)
    }

    @Test(
        "a decoding error names the JSON path that failed",
        arguments: [
            (
                #"{"result":"success","time_last_update_unix":1,"base_code":"KRW","rates":{}}"#,
                "$.base_code", "asked for rates from USD, the answer is from KRW"
            ),
            (
                #"{"result":"success","base_code":"USD","rates":{}}"#, "$.time_last_update_unix",
                "expected a whole number, found nothing"
            ),
            (#"{"base_code":"USD","rates":{}}"#, "$.result", "expected a string, found nothing"),
            // Seconds that cannot be counted in milliseconds used to trap.
            (
                #"{"result":"success","time_last_update_unix":9223372036854775807,"base_code":"USD","rates":{}}"#,
                "$.time_last_update_unix", "9223372036854775807 seconds is out of range"
            ),
            (
                #"{"result":"success","time_last_update_unix":1724198551,"time_next_update_unix":-9223372036854775807,"base_code":"USD","rates":{}}"#,
                "$.time_next_update_unix", "-9223372036854775807 seconds is out of range"
            ),
        ])
    func decodingPath(body: String, path: String, detail: String) async {
        let client = ScriptedHTTPClient(body: body)
        await #expect(throws: AggError.decoding(venue: "exchangerate", path: path, detail: detail)) {
            try await bed.adapter(client).rates(base: "USD")
        }
    }

    @Test(
        "a base that is not three letters is a usage error, before any request",
        arguments: ["", "US", "USDT", "U$D", "12A", "US D", "€UR", "usd "])
    func badBase(code: String) async {
        let client = ScriptedHTTPClient(body: "{}")
        await #expect(throws: AggError.invalidCurrency(code)) {
            try await bed.adapter(client).rates(base: code)
        }
        #expect(AggError.invalidCurrency(code).isUsageError)
        #expect(client.requests.isEmpty)
    }

    @Test("the FX source does not pretend to quote markets")
    func noTicker() async {
        let client = ScriptedHTTPClient(body: "{}")
        await #expect(throws: AggError.unsupported(venue: "exchangerate", capability: .ticker)) {
            try await bed.adapter(client).quote(for: Market(base: "BTC", quote: "USD"))
        }
        #expect(client.requests.isEmpty)
    }
}
