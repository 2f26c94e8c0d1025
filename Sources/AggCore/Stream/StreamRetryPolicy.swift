/// How a stream runner waits between attempts and when it gives a connection up to polling.
public struct StreamRetryPolicy: Sendable, Equatable {
    /// The backoff before the first reconnect; it doubles with every failure in a row.
    public var initialDelay: Duration
    /// The longest backoff.
    public var maximumDelay: Duration
    /// After this long without a live stream, a connection's markets fall back to REST polling.
    public var fallbackAfter: Duration

    /// Creates a policy.
    public init(initialDelay: Duration, maximumDelay: Duration, fallbackAfter: Duration) {
        self.initialDelay = initialDelay
        self.maximumDelay = maximumDelay
        self.fallbackAfter = fallbackAfter
    }

    /// 1 s doubling to at most 30 s; polling after 60 s without a stream.
    public static let standard = StreamRetryPolicy(
        initialDelay: .seconds(1), maximumDelay: .seconds(30), fallbackAfter: .seconds(60))
}

/// Jittered exponential backoff ("equal jitter"): after failure n in a row the nominal delay is
/// `initialDelay * 2^(n-1)`, capped at `maximumDelay`, and the wait is its half plus a random
/// part of up to the other half, in whole milliseconds. The jitter spreads the reconnects of
/// many clients; the half that is not random keeps a failing venue from being hammered.
struct StreamBackoff: Sendable {
    private let initial: Int64
    private let maximum: Int64
    private var random: SplitMix64

    init(policy: StreamRetryPolicy, seed: UInt64) {
        initial = max(1, StreamDurationText.milliseconds(policy.initialDelay))
        maximum = max(initial, StreamDurationText.milliseconds(policy.maximumDelay))
        random = SplitMix64(seed: seed)
    }

    /// The wait after failure `failures` in a row (1 for the first).
    mutating func delay(afterFailures failures: Int) -> Duration {
        var nominal = initial
        for _ in 1..<min(max(1, failures), 64) where nominal < maximum {
            nominal = nominal > maximum / 2 ? maximum : nominal * 2
        }
        nominal = min(nominal, maximum)
        let half = nominal / 2
        let jitter = Int64(random.next() % UInt64(nominal - half + 1))
        return .milliseconds(half + jitter)
    }
}

/// SplitMix64: a small deterministic random source, so a seeded runner jitters the same way on
/// every run.
struct SplitMix64: Sendable {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// At most `limit` events in any `window`: the times of the latest events, and the earliest time
/// the next one fits. Paces a connection's messages (a second) and a venue's connection attempts
/// (its connection window).
struct SlidingWindowPacer: Sendable {
    let limit: Int
    let window: Duration
    /// The times of the latest `limit` events, ascending.
    private var recent: [Duration] = []

    init(limit: Int, window: Duration) {
        self.limit = max(1, limit)
        self.window = window
    }

    /// The earliest time at or after `earliest` when one more event keeps within the limit.
    func nextSlot(from earliest: Duration) -> Duration {
        guard recent.count >= limit else { return earliest }
        return max(earliest, recent[recent.count - limit] + window)
    }

    /// Records an event at `time`.
    mutating func record(_ time: Duration) {
        let index = recent.lastIndex { $0 <= time }.map { $0 + 1 } ?? 0
        recent.insert(time, at: index)
        if recent.count > limit { recent.removeFirst(recent.count - limit) }
    }

    /// Takes the earliest slot at or after `earliest` and records it.
    mutating func reserve(from earliest: Duration) -> Duration {
        let slot = nextSlot(from: earliest)
        record(slot)
        return slot
    }
}
