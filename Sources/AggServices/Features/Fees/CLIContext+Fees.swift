import AggCore
import AggOptions

extension CLIContext {
    /// The taker fees every service charges: each venue's published schedule, with the config
    /// file's `venueSettings.<id>.takerFee` over it.
    package var takerFeeLookup: TakerFeeLookup {
        TakerFeeLookup(registry: registry, overrides: configuration.feeOverrides.compactMapValues(\.takerFee))
    }

    /// The config file's fixed withdrawal fees (`venueSettings.<id>.withdrawalFees`) by venue id.
    package var withdrawalFeeOverrides: [String: VenueFeeOverrides] {
        configuration.feeOverrides.filter { !$0.value.withdrawalFees.isEmpty }
    }
}
