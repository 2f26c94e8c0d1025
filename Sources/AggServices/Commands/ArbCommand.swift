import AggCore
import AggOptions
import FoundationEssentials

/// `agg arb`: one route priced at one size: buy a coin on one venue's asks, withdraw it on the
/// cheapest network open on both sides, sell it on another venue's bids, and count what comes
/// back after taker fees, the withdrawal fee and the FX conversion.
package enum ArbCommand {
    static let from = Option<String>(
        "from", value: "VENUE", help: "The venue to buy on (its asks).", completion: .exchangeIDs, parser: .venueID)
    static let to = Option<String>(
        "to", value: "VENUE", help: "The venue to sell on (its bids).", completion: .exchangeIDs, parser: .venueID)
    static let notional = Option<Decimal>(
        "notional", value: "AMOUNT",
        help: "The order size, in --in's currency: 1000000, 2.5K, 10M or 1B (at most 1e12).",
        parser: NotionalText.parser)
    static let currency = Settings.localCurrency(help: "The currency of --notional and of the net")

    package static let spec = CommandSpec(
        name: "arb",
        summary: "Price one arbitrage route at a size: buy, transfer, sell, net and break-even.",
        arguments: "COIN",
        options: [from, to, notional, currency, CommonOptions.fxSource, CommonOptions.maxFXAge] + CommonOptions.network,
        positionals: (1, 1),
        examples: [
            "agg arb BTC --from binance --to upbit --notional 10M",
            "agg arb XRP --from upbit --to bithumb --notional 2.5M --format json",
            "agg arb ETH --from coinbase --to upbit --notional 5000 --in USD",
        ],
        discussion: """
            Both order books (each at its venue's deepest level count), both venues' transfer
            status and the exchange rates are asked at once. The buy walks the asks level by level
            to the notional (converted into the buying venue's currency) and the sale walks the
            bids with the coin that arrives; each leg pays its venue's taker fee (the published
            schedule, or venueSettings.<id>.takerFee). The coin moves on the cheapest network whose
            withdrawals are open on the buying venue and deposits open on the selling venue
            (network names matched across venues); a side that does not publish its status
            (Upbit without a key, a venue without transfer status) counts as unknown: the route
            may use it, with a warning. When every network is closed on a side there is no route:
            exit 1 with why. A withdrawal fee agg does not know is shown as unknown and leaves the
            net empty (exit 1) rather than being guessed. BREAK-EVEN is the smallest notional at
            which the net is zero or more, solved exactly on the books and fees. A book that
            cannot fill says how much it can; a crossed book (ask below bid) is not used.
            --notional takes plain digits with an optional K, M or B; 1,000,000 is refused.
            """,
        venueCapability: .orderBook
    )
}
