import AggCore

/// What every venue's loopback test of its ticker script holds, in one value compared whole:
/// the quotes in order, how many readings the script gave, no failure, and the end seen with no
/// broken expectation.
public struct TickerStreamOutcome: Sendable, Equatable {
    /// The quotes read, in order.
    public var quotes: [Quote]
    /// How many messages the codec read (quotes, control messages, replies).
    public var readings: Int
    /// How the messages failed (`nil` when they did not).
    public var failure: String?
    /// `TickerStreamRun.endedClean`.
    public var endedClean: Bool

    /// The outcome of a run that read `quotes` in `readings` messages, did not fail and ended clean.
    public init(quotes: [Quote], readings: Int, failure: String? = nil, endedClean: Bool = true) {
        self.quotes = quotes
        self.readings = readings
        self.failure = failure
        self.endedClean = endedClean
    }
}

extension TickerStreamRun {
    /// The run's quotes, readings, failure and clean end.
    public var outcome: TickerStreamOutcome {
        TickerStreamOutcome(
            quotes: transcript.quotes, readings: transcript.readings.count, failure: transcript.failure,
            endedClean: endedClean)
    }
}
