import FoundationEssentials

/// How much work the clients of `agg serve` may cause: symbols per request, answers computed at
/// once and waiting, how long one may take, and the response cache's size.
package struct ServeLimits: Sendable {
    /// Symbols one request may name (more is 400).
    var maximumSymbols = 200
    /// Expensive answers (compare, premium, rates, status, history) computed at once: fewer
    /// than the cores, so that one is always left for cheap ones.
    var computeSlots: Int
    /// Expensive requests waiting for a slot; more are 503 with `Retry-After` at once.
    var computeWaiting = 16
    /// Quotes computed at once, and waiting: a lane of their own, so that expensive requests
    /// never starve them.
    var quoteSlots = 2
    var quoteWaiting = 64
    /// Seconds one answer may take, its wait for a slot included, before the client gets 503.
    var computeSeconds: Double = 10
    /// Bytes of answers the response cache keeps, and answers at most.
    var cacheBytes = 32 * 1024 * 1024
    var cacheKeys = 1024
    /// Whether the heap's free memory goes back to the system after a burst of expensive
    /// answers (off only to measure what that gives).
    var returnsMemory = true

    /// The limits for this machine: one compute slot less than its cores.
    static var standard: ServeLimits {
        ServeLimits(computeSlots: max(1, ProcessInfo.processInfo.activeProcessorCount - 1))
    }
}
