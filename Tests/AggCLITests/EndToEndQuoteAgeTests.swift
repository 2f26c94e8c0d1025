import AggCore
import AggJSON
import AggTestKit
import Foundation
import Testing

@testable import AggServices

/// The real `agg` binary shows every quote's age: received during the run, aged from the venue's
/// time, and stale (the recordings are from 2024, far older than any --stale-after).
@Suite("quote ages end to end")
struct EndToEndQuoteAgeTests {
    /// Bithumb's recorded BTC ticker time, 2024-08-08T08:12:15.027Z.
    static let bithumbTime = Timestamp(millisecondsSince1970: 1_723_104_735_027)

    @Test("quote: JSON ends with receivedAt (during the run), ageSeconds and stale; the table with AGE")
    func quote() async throws {
        let server = try FixtureServer(venues: ["bithumb"])
        let before = Timestamp.now
        let run = try await AggBinary.run(
            ["quote", "BTC", "-e", "bithumb", "-f", "json"], environment: try server.privateEnvironment())
        let after = Timestamp.now
        #expect(run.status == 0, "\(run.error)")
        let quote = JSONCursor(try JSONParser.parse(run.output))["quotes"][0].value
        #expect(try AgeFields.check(quote, venueTime: Self.bithumbTime, before: before, after: after))
        #expect(
            quote.map(AgeFields.stripped)?.serialized() == """
                {"exchange":"bithumb","symbol":"BTC/KRW","base":"BTC","quote":"KRW","last":"80630000",\
                "open":"79934000","high":"81500000","low":"77734000","previousClose":"79999000","change":"-435000",\
                "changePercent":"-0.54","changeBasis":"rolling24h","baseVolume":"1368.01423432",\
                "quoteVolume":"109282011238.50126","timestamp":"2024-08-08T08:12:15.027Z"}
                """)
        let table = try await AggBinary.run(
            ["quote", "BTC", "-e", "bithumb", "-f", "table"], environment: try server.privateEnvironment())
        let lines = table.output.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasSuffix("  AGE") == true)
        // Over two years old: days, and the stale mark (no colour: NO_COLOR).
        #expect(lines.last?.range(of: #"  2024-08-08 08:12:15  \d+d stale$"#, options: .regularExpression) != nil)
    }

    @Test("premium: every venue of the board ends with its age; CSV appends the columns")
    func premium() async throws {
        let server = try FixtureServer()
        let before = Timestamp.now
        let run = try await AggBinary.run(
            ["premium", "BTC", "-f", "json"], environment: try server.privateEnvironment())
        let after = Timestamp.now
        #expect(run.status == 0, "\(run.error)")
        let venues = try JSONCursor(try JSONParser.parse(run.output))["rows"][0]["venues"].elements()
        #expect(venues.count == 8)
        for venue in venues {
            let time = try #require(Timestamp(iso8601: try venue["receivedAt"].string()))
            #expect(time >= before && time <= after)
            // Every recording with a time is older than --stale-after; Kraken's ticker has no
            // time, so its age is from when agg received it: fresh.
            #expect(try venue["stale"].bool() == (try venue["exchange"].string() != "kraken"))
            let age = try venue["ageSeconds"].string()
            #expect(age.range(of: #"^\d+\.\d{3}$"#, options: .regularExpression) != nil)
        }
        let bithumb = try #require(venues.first { (try? $0["exchange"].string()) == "bithumb" })
        try AgeFields.check(bithumb.value, venueTime: Self.bithumbTime, before: before, after: after)
        let csv = try await AggBinary.run(
            ["premium", "BTC", "-f", "csv"], environment: try server.privateEnvironment())
        let lines = csv.output.split(separator: "\n").map(String.init)
        #expect(
            lines.first
                == "time,base,exchange,symbol,last,lastConverted,premiumPercent,usdtPremiumPercent,volumeConverted,"
                + "local,outlier,reference,flags,receivedAt,ageSeconds,stale")
        #expect(lines.dropFirst().allSatisfy { $0.hasSuffix($0.contains(",kraken,") ? ",false" : ",true") })
    }
}
