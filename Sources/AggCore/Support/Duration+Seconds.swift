extension Duration {
    /// The duration in seconds, for the places that count in seconds (deadlines handed to C and
    /// to `waitForAsync`, histograms, schedules kept in monotonic seconds) and for messages.
    public var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}

extension Duration {
    /// Whole milliseconds (rounded toward zero), saturating at `Int64`'s bounds: for the places
    /// that count in exact milliseconds (timestamps, retry delays, messages).
    public var wholeMilliseconds: Int64 {
        let (seconds, attoseconds) = components
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        guard !overflow else { return seconds < 0 ? .min : .max }
        return whole &+ attoseconds / 1_000_000_000_000_000
    }
}
