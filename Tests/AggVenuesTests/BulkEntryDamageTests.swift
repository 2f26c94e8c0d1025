import AggCore
import AggTestKit
import AggVenues
import Testing

/// Rules 1 to 3 of issue 20 for every venue's bulk answers, as data
/// (`Fixtures/<id>/bulk-entries.json`, see `BulkEntryDamage`): the recorded market list or rate
/// table answers whole, and each damaged entry costs that entry only, reported once with its
/// market, path and reason. A venue's own quirks stay in its `<Venue>BulkEntryTests`.
@Suite("Every venue: one bad entry of a bulk answer costs that entry")
struct BulkEntryDamageTests {
    static let venues = AdapterRegistry.standard.registrations + AdapterRegistry.shippedDataVenues

    /// How many values each venue's data has the runner compare: a file that lost a case, or a
    /// runner that skipped one, fails here rather than passing quietly.
    static let checked = [
        "binance": 36, "bithumb": 8, "coinbase": 28, "coinone": 34, "dunamu": 34, "exchangerate": 48,
        "frankfurter": 40, "gopax": 28, "korbit": 30, "kraken": 34, "okx": 34, "upbit": 28,
    ]

    @Test("the recorded answer whole, then each damaged entry: skipped or refused alone", arguments: venues)
    func damage(_ registration: AdapterRegistration) async throws {
        let id = registration.descriptor.id
        guard let damage = try BulkEntryDamage.venue(id) else {
            #expect(Self.checked[id] == nil, "\(id) has no bulk-entries.json")
            return
        }
        #expect(damage.venue == id)
        let outcome = try await damage.check(baseURL: registration.descriptor.defaultBaseURL, registration.make)
        #expect(outcome.mismatches == [], Comment(rawValue: "\(id):\n" + outcome.mismatches.joined(separator: "\n")))
        #expect(outcome.checked == Self.checked[id])
    }
}
