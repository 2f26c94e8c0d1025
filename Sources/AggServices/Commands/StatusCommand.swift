import AggCore
import AggOptions

/// `agg status`: whether coins can be deposited and withdrawn, per venue and network.
package enum StatusCommand {
    package static let spec = CommandSpec(
        name: "status",
        summary: "Show whether coins can be deposited and withdrawn on each venue, per network.",
        arguments: "SYMBOL...",
        options: [CommonOptions.exchange] + CommonOptions.network,
        positionals: (1, nil),
        examples: ["agg status BTC ETH", "agg status USDT --exchange bithumb --format json"],
        discussion: """
            Each venue that publishes it is asked once for its public list. DEPOSIT and WITHDRAW
            are open, closed or unknown; a venue that publishes no wallet status without an API key
            (Upbit) says unknown, with its market warnings as a note, rather than a guess. The
            withdrawal fee is shown where the venue publishes it.
            """,
        venueCapability: .transferStatus
    )
}
