import AggCore

/// A history store for tests that implement only the part they exercise: the rest keeps
/// nothing and answers empty (no points, no alert states, nothing pruned), and every venue
/// asked for is claimed, as by a single recorder.
public protocol HistoryStoreStub: HistoryStore {}

extension HistoryStoreStub {
    public func record(_ tick: RecordedTick) async throws(AggError) {}
    public func prices(_ query: HistoryQuery) async throws(AggError) -> [PricePoint] { [] }
    public func premiums(_ query: HistoryQuery) async throws(AggError) -> [PremiumPoint] { [] }
    public func prune(before cutoff: Timestamp, limit: Int) async throws(AggError) -> Int { 0 }
    public func alertStates() async throws(AggError) -> [AlertState] { [] }
    public func saveAlertStates(_ states: [AlertState]) async throws(AggError) {}
    public func claimVenues(_ venues: [String], holder: String, now: Timestamp, expiry: Timestamp)
        async throws(AggError) -> Set<String>
    { Set(venues) }
    public func releaseVenues(holder: String) async throws(AggError) {}
}
