/// When each FX source is asked next: the one policy of every mode that asks FX sources more
/// than once (`agg serve`, `premium --watch`, `record`). FX sources update a few times a day and
/// some block callers who ask often (ExchangeRate-API for about 20 minutes after a 429), so a
/// source is asked only when it is due:
///
/// - never asked yet: due at once;
/// - after a table: due at the table's `nextUpdate`, but never sooner than
///   `minimumIntervalSeconds` after the request, and never later than `refreshSeconds` after it;
/// - after a table whose `nextUpdate` had already passed when it came (the provider is late
///   with its update): due after the backoff below, capped at `refreshSeconds`;
/// - after a failure: due after `minimumIntervalSeconds`, doubled with each failure in a row,
///   up to `maximumBackoffSeconds`, and never before the venue's own `Retry-After`.
///
/// The schedule is a value: the caller keeps it between rounds and passes the time (its own
/// clock, injected in tests), so that no request is counted twice and tests need no waiting.
public struct FXSchedule: Sendable {
    /// The numbers of the policy.
    public struct Policy: Sendable, Equatable {
        /// A table is used at most this long before its source is asked again.
        public var refreshSeconds: Int64
        /// A source is never asked again sooner than this after a request.
        public var minimumIntervalSeconds: Int64
        /// The longest wait after failures in a row.
        public var maximumBackoffSeconds: Int64

        public init(
            refreshSeconds: Int64 = 300, minimumIntervalSeconds: Int64 = 60, maximumBackoffSeconds: Int64 = 1_800
        ) {
            self.refreshSeconds = refreshSeconds
            self.minimumIntervalSeconds = minimumIntervalSeconds
            self.maximumBackoffSeconds = maximumBackoffSeconds
        }

        /// Five minutes' reuse, a minute between requests, half an hour's wait at most.
        public static let standard = Policy()
    }

    /// What the schedule knows of one source.
    public struct Entry: Sendable {
        /// The last table the source sent, kept through later failures.
        public var table: RateTable?
        /// When `table` was fetched.
        public var fetched: Timestamp?
        /// When the source was last asked, and what it answered then.
        public var asked: Timestamp
        public var lastError: AggError?
        /// When the source is due again.
        public var due: Timestamp
        /// Failures (or late tables) in a row, for the backoff.
        public var misses: Int
    }

    public let policy: Policy
    private var entries: [String: Entry] = [:]

    public init(policy: Policy = .standard) {
        self.policy = policy
    }

    /// Whether `source` should be asked at `now`.
    public func isDue(_ source: String, at now: Timestamp) -> Bool {
        guard let entry = entries[source] else { return true }
        return entry.due <= now
    }

    /// The sources of `sources` that are due at `now`, in their order.
    public func due(_ sources: [AdapterDescriptor], at now: Timestamp) -> [AdapterDescriptor] {
        sources.filter { isDue($0.id, at: now) }
    }

    /// What the schedule knows of `source`, if it was ever asked.
    public func entry(_ source: String) -> Entry? { entries[source] }

    /// The last table each source sent (kept through later failures), by source id.
    public var tables: [RateTable] { entries.keys.sorted().compactMap { entries[$0]?.table } }

    /// Records what `source` answered when asked at `now`.
    public mutating func record(_ source: String, _ outcome: Result<RateTable, AggError>, at now: Timestamp) {
        var entry =
            entries[source] ?? Entry(table: nil, fetched: nil, asked: now, lastError: nil, due: now, misses: 0)
        entry.asked = now
        switch outcome {
        case .success(let table):
            entry.table = table
            entry.fetched = now
            entry.lastError = nil
            if let nextUpdate = table.nextUpdate, nextUpdate <= now {
                entry.misses += 1
                entry.due = now.adding(seconds: min(backoff(misses: entry.misses), policy.refreshSeconds))
            } else {
                entry.misses = 0
                let latest = now.adding(seconds: policy.refreshSeconds)
                let earliest = now.adding(seconds: policy.minimumIntervalSeconds)
                entry.due = max(earliest, min(latest, table.nextUpdate ?? latest))
            }
        case .failure(let error):
            entry.lastError = error
            entry.misses += 1
            var wait = backoff(misses: entry.misses)
            if case .rateLimited(_, let retryAfter?) = error { wait = max(wait, Int64(clamping: retryAfter)) }
            entry.due = now.adding(seconds: wait)
        }
        entries[source] = entry
    }

    /// `minimumIntervalSeconds` doubled for each miss after the first, up to the maximum.
    private func backoff(misses: Int) -> Int64 {
        var wait = max(1, policy.minimumIntervalSeconds)
        for _ in 1..<max(1, misses) where wait < policy.maximumBackoffSeconds { wait *= 2 }
        return min(wait, max(policy.maximumBackoffSeconds, policy.minimumIntervalSeconds))
    }
}

extension Timestamp {
    /// This moment plus `seconds`, saturating rather than trapping.
    fileprivate func adding(seconds: Int64) -> Timestamp {
        let (product, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        let (sum, overflowed) = millisecondsSince1970.addingReportingOverflow(overflow ? Int64.max : product)
        return Timestamp(millisecondsSince1970: overflowed ? Int64.max : sum)
    }
}
