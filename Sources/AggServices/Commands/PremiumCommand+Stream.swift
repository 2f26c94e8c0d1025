import AggOptions

extension PremiumCommand {
    /// `--stream` (with `--watch`): the board follows the venues' live streams.
    static let stream = Flag(
        "stream",
        help:
            "With --watch: follow the venues' live streams, recomputing the coins that changed (at most 4 redraws a second)"
    )
}
