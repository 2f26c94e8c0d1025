import AggCore
import FoundationEssentials

/// The taker fee agg charges a venue's market in routes and net premiums: the user's own rate
/// from the config file (`venueSettings.<id>.takerFee`) when there is one, else the venue's
/// published schedule (`AdapterDescriptor.fees`), with where the figure comes from.
package struct TakerFeeLookup: Sendable {
    /// A fee and its origin.
    package struct Choice: Sendable, Equatable {
        package var fee: TakerFee
        package var source: Source
    }

    /// Where a taker fee comes from.
    package enum Source: Sendable, Equatable {
        /// The venue's published schedule: its page and the day it was read.
        case schedule(source: String, asOf: String)
        /// The config file's `venueSettings.<id>.takerFee`.
        case configuration
    }

    var registry: AdapterRegistry
    /// The config file's rates by venue id, already validated (0 ≤ rate < 1).
    var overrides: [String: Decimal]

    package init(registry: AdapterRegistry, overrides: [String: Decimal] = [:]) {
        self.registry = registry
        self.overrides = overrides
    }

    /// The fee of `venue`'s market quoted in `currency`; `nil` when the venue publishes no
    /// schedule and the config file sets none.
    package func taker(venue: String, quotedIn currency: String) -> Choice? {
        let schedule = registry.descriptor(id: venue)?.fees
        if let rate = overrides[venue] {
            return Choice(
                fee: TakerFee(rate: rate, buyCharge: schedule?.buyCharge ?? .quoteCurrency), source: .configuration)
        }
        guard let schedule else { return nil }
        return Choice(
            fee: schedule.taker(quotedIn: currency), source: .schedule(source: schedule.source, asOf: schedule.asOf))
    }
}
