import AggCore
import AggJSON
import AggTestKit
import Foundation
import Testing

/// A stale quote says the change basis its quote was fetched with (the quote cache keeps it):
/// Bithumb's v1 quotes have none, though the venue's descriptor says rolling 24 h.
@Suite("stale quotes: the cached quote's own change basis")
struct StaleQuoteBasisTests {
    @Test(
        "a stale Bithumb quote keeps the basis it was fetched with: none from v1, rolling24h from the classic API",
        arguments: [("v1", nil as String?), ("classic", "rolling24h")])
    func bithumbBasis(api: String, basis: String?) async throws {
        try await withTemporaryHome { home async throws in
            let config = home + "/config.json"
            try #"{"venueSettings": {"bithumb": {"api": "\#(api)"}}}"#.write(
                toFile: config, atomically: true, encoding: .utf8)
            let environment = ["AGG_HOME": home, "AGG_CONFIG": config]
            let arguments = ["quote", "BTC", "-e", "bithumb", "-f", "json"]
            let cachedAt = Timestamp(millisecondsSince1970: 1_723_104_800_000)
            let fresh = await runCLI(
                arguments, environment: environment, http: try recordedBithumb(), registry: bithumbRegistry(),
                now: cachedAt)
            try #require(fresh.status == 0)
            let fetched = try fresh.json()["quotes"][0]
            #expect(try fetched["changeBasis"].optionalString() == basis)

            let stale = await runCLI(
                arguments, environment: environment,
                http: ScriptedHTTPClient { request in throw TransportError.timeout(url: request.url, seconds: 2) },
                registry: bithumbRegistry(),
                now: Timestamp(millisecondsSince1970: cachedAt.millisecondsSince1970 + 1_000))
            #expect(stale.status == 1)
            let shown = try stale.json()["quotes"][0]
            #expect(shown["stale"].value == .bool(true))
            #expect(try shown["changeBasis"].optionalString() == basis)
            #expect(try shown["last"].string() == (try fetched["last"].string()))
        }
    }
}
