extension Duration {
    /// The duration in seconds, for deadlines derived from measured work and for messages.
    public var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
