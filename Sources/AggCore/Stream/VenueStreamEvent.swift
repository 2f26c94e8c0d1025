/// What a venue's stream runner reports, in order.
public enum VenueStreamEvent: Sendable, Equatable {
    /// Connection `connection` (an index into `VenueStream.plan`) changed state.
    case state(connection: Int, VenueStreamState)
    /// Quotes read from one message, each with its `receivedAt`, and the entries of the message
    /// that did not decode (each costs only itself).
    case quotes(connection: Int, [Quote], skipped: [SkippedEntry])
    /// A message that did not decode (`StreamReading.malformed`): it costs only itself, the
    /// stream stays up. `total` counts the venue's malformed messages since the runner started.
    case malformed(connection: Int, reason: String, total: Int)
}

/// The state of one of a venue's stream connections.
public enum VenueStreamState: Sendable, Equatable {
    /// Attempt `attempt` (1 after the connection was live, or at the start) begins, `waited`
    /// after the previous one failed: the jittered backoff, or longer when the venue's
    /// connection quota asked for it.
    case connecting(attempt: Int, waited: Duration)
    /// Subscribed, and the venue has sent a message since: quotes flow. Reported the first time.
    case live
    /// Down, for this reason: reported once per outage (the first fault), however many
    /// attempts fail before the connection is live again. Its last quotes are no longer fresh.
    case down(StreamFault)
    /// Live again after an outage, subscriptions renewed: the caller fills the gap with one REST
    /// snapshot of the connection's markets (and stops polling them).
    case resubscribed
    /// No live stream for the fallback time (60 s) since the outage began (or since the start):
    /// the caller polls the connection's markets over REST until the connection is live again
    /// (`resubscribed`, or `live` when it never was). Once per outage.
    case polling
}
