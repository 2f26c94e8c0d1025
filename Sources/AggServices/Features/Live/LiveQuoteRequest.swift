import AggCore

/// What the live quote service is asked: the venues and markets (`agg quote`'s plan), how often
/// to poll REST where there is no live stream, and whether to stream at all.
package struct LiveQuoteRequest: Sendable {
    package var plan: QuoteService.Plan
    /// Seconds between REST polls: for a venue without a stream, and for a venue whose stream
    /// has been down for the fallback time (`VenueStreamState.polling`).
    package var interval: Double
    /// Whether venues that declare `.stream` stream (`false`: every venue polls REST).
    package var streams: Bool
    /// Whether the venues were named by the user (`--exchange`): then a venue that has no stream
    /// says once that it polls instead.
    package var announcesPolling: Bool
    /// Told every state of every venue's stream connections as it comes (`agg serve`'s
    /// per-venue stream metrics): the venue, the connection and its state.
    package var observesStreams: (@Sendable (String, Int, VenueStreamState) -> Void)? = nil

    package init(plan: QuoteService.Plan, interval: Double, streams: Bool = true, announcesPolling: Bool = false) {
        self.plan = plan
        self.interval = interval
        self.streams = streams
        self.announcesPolling = announcesPolling
    }
}

/// What the live quote service yields, in order.
package enum LiveQuoteUpdate: Sendable {
    /// Quotes changed: the outcomes of the (venue, market) pairs that changed, and the whole
    /// board after the change (in the plan's order; a market not heard from yet is absent).
    /// A quote whose stream is down is a failure with the last quote standing in, marked stale.
    case quotes(changed: [QuoteService.Outcome], board: [QuoteService.Outcome])
    /// One line about a venue's stream for the user (stderr on the command line): down, back,
    /// polling over REST, or no stream at all. Each is said once per outage.
    case notice(String)
    /// A message of `venue`'s stream did not decode (`reason`): it cost only itself. `total`
    /// counts the venue's malformed messages since the start (`AGG_DEBUG` shows them).
    case malformed(venue: String, reason: String, total: Int)
}
