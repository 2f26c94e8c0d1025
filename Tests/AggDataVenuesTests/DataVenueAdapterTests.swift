import AggCore
import AggDataVenues
import AggJSON
import AggTestKit
import Foundation
import Testing

/// The data venue adapter's quirks (bad decimals, skipped entries, time formats) and the contract
/// checker over every shipped venue file. What the shipped GOPAX file answers from its sample
/// data is Fixtures/gopax/expectations.json, run by VenueExpectationTests.
@Suite("data venue adapter")
struct DataVenueAdapterTests {
    static let gopaxFile = DataVenueDirectory.checkout.appendingPathComponent("gopax.json")

    @Test("a field that is not an exact decimal is a decoding error at the answer's path")
    func badDecimal() async throws {
        let registration = try DataVenueLoader.load(file: Self.gopaxFile) { .shippedFile(path: $0) }
        let adapter = registration.make(
            AdapterEnvironment(
                baseURL: "https://gopax.invalid",
                http: ScriptedHTTPClient(body: #"{"price": "80,640,000", "time": "2024-08-08T08:12:14Z"}"#)))
        await #expect(
            throws: AggError.decoding(venue: "gopax", path: "$.price", detail: "'80,640,000' is not a decimal number")
        ) {
            _ = try await adapter.quote(for: Market(base: "BTC", quote: "KRW"))
        }
    }

    /// Rules 1 and 2 of issue 20 for venue files: an entry of the all-tickers answer whose price
    /// is not positive or whose time is outside 2009-01-03 ... now + 1 day costs only itself.
    @Test("an all-tickers entry out of bounds is skipped and reported; the others answer")
    func allTickersBadEntries() async throws {
        let registration = try DataVenueLoader.load(file: Self.gopaxFile) { .shippedFile(path: $0) }
        let body =
            #"[{"name":"BTC-KRW","close":80640000,"time":"2024-08-08T08:12:14.871Z"},"#
            + #"{"name":"XRP-KRW","close":0,"time":"2024-08-08T08:12:11.020Z"},"#
            + #"{"name":"ETH-KRW","close":3405000,"time":"2100-01-01T00:00:00Z"},"#
            + #"{"name":"GPX-KRW","close":"1e3","time":"2024-08-08T08:12:11.020Z"}]"#
        let adapter = registration.make(
            AdapterEnvironment(baseURL: "https://gopax.invalid", http: ScriptedHTTPClient(body: body)))
        let answer = try await adapter.allQuotesAnswer(quotedIn: "KRW")
        #expect(answer.values.map(\.market.description) == ["BTC/KRW"])
        #expect(
            answer.skipped.map(\.description) == [
                "gopax: skipped XRP-KRW: unexpected response at $[1].close: '0' is not a positive price",
                "gopax: skipped ETH-KRW: unexpected response at $[2].time: 2100-01-01T00:00:00.000Z is more than a day in the future",
                "gopax: skipped GPX-KRW: unexpected response at $[3].close: '1e3' has an exponent: a decimal written as text must be written out in full",
            ])
        #expect(answer.skipped.map(\.market) == ["XRP", "ETH", "GPX"].map { Market(base: $0, quote: "KRW") })
    }

    @Test(
        "the contract checker passes every shipped venue file against its recordings",
        arguments: AdapterContract.shippedDataVenueFiles)
    func contract(file: URL) async throws {
        let id = String(file.lastPathComponent.dropLast(".json".count))
        let problems = try await AdapterContract.checkDataVenue(
            file: file, recordings: Fixtures.directory.appendingPathComponent(id))
        #expect(problems == [])
    }

    @Test("the checker names a file that cannot be loaded, and what a wrong path breaks")
    func contractFailures() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("agg-dv-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let text = try String(contentsOf: Self.gopaxFile, encoding: .utf8)
        let broken = folder.appendingPathComponent("broken.json")
        try text.replacing(#""last": "$.price""#, with: #""last": "$.lastPrice""#).write(
            to: broken, atomically: true, encoding: .utf8)
        let problems = try await AdapterContract.checkDataVenue(
            file: broken, recordings: Fixtures.directory.appendingPathComponent("gopax"))
        #expect(
            problems.contains(
                "ticker: declared, but fails: gopax: unexpected response at $.lastPrice: expected a decimal, found nothing"
            ))
        let invalid = folder.appendingPathComponent("invalid.json")
        try text.replacing(#""id": "gopax""#, with: #""id": "GOPAX""#).write(
            to: invalid, atomically: true, encoding: .utf8)
        let refused = try await AdapterContract.checkDataVenue(
            file: invalid, recordings: Fixtures.directory.appendingPathComponent("gopax"))
        #expect(refused == ["venue file \(invalid.path): $.id: 'GOPAX' is not 1 to 20 lower-case letters and digits"])
    }

    @Test(
        "time formats",
        arguments: [
            (VenueTimeFormat.epochMilliseconds, JSONValue.number("1723104735027"), "2024-08-08T08:12:15.027Z"),
            (.epochMilliseconds, .string("1723104735027"), "2024-08-08T08:12:15.027Z"),
            (.epochSeconds, .number("1723104735"), "2024-08-08T08:12:15.000Z"),
            (.iso8601, .string("2024-08-08T17:12:15.027123+09:00"), "2024-08-08T08:12:15.027Z"),
            (.iso8601, .string("2024-08-08T08:12:15Z"), "2024-08-08T08:12:15.000Z"),
            (.local(offsetSeconds: 32_400), .string("2024-08-08 17:12:15"), "2024-08-08T08:12:15.000Z"),
        ])
    func times(format: VenueTimeFormat, value: JSONValue, expected: String) throws {
        #expect(try format.read(JSONCursor(value)).description == expected)
    }

    @Test(
        "times that do not match the format are refused",
        arguments: [
            (VenueTimeFormat.iso8601, JSONValue.string("2024-08-08 17:12:15")),
            (.iso8601, .string("2024-02-30T00:00:00Z")),
            (.local(offsetSeconds: 32_400), .string("2024-08-08T08:12:15Z")),
            (.epochSeconds, .number("9223372036854775807")),
            (.epochMilliseconds, .number("1.5")),
        ])
    func badTimes(format: VenueTimeFormat, value: JSONValue) {
        #expect(throws: JSONDecodingError.self) { _ = try format.read(JSONCursor(value)) }
    }
}
