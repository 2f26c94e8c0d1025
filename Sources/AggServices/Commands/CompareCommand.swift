import AggCore
import AggJSON
import AggOptions
import AggStore
import FoundationEssentials

/// `agg compare`: one coin on every venue, converted into one currency, with each venue's
/// premium over the global venues (for KRW, the "kimchi premium").
package enum CompareCommand {
    static let currency = Settings.localCurrency(help: "Convert into this currency")
    static let usdt = Setting(
        Option<StablecoinValuation>("usdt", value: "HOW", help: "", parser: .choice()),
        help: "Value USDT as one US dollar (assume) or at a Korean venue's USDT/KRW (market)", builtIn: .assume,
        shown: \.rawValue)

    package static let spec = CommandSpec(
        name: "compare",
        summary: "Compare coins across venues in one currency, with each venue's premium.",
        arguments: "SYMBOL...",
        options: [
            currency, CommonOptions.exchange, usdt, CommonOptions.fxSource, CommonOptions.maxFXAge,
            CommonOptions.refresh, Settings.staleAfter,
        ] + CommonOptions.network,
        positionals: (1, nil),
        examples: [
            "agg compare BTC",
            "agg compare BTC ETH XRP",
            "agg compare ETH --in USD --format json",
            "agg compare BTC --exchange upbit,binance,coinbase --usdt market",
            "agg compare USDT",
        ],
        discussion: """
            SYMBOL is a coin (BTC); each venue is asked for it in its home currency, all at once,
            together with the exchange rates the conversion needs. The reference price is the
            median of the venues not quoted in the target currency (for KRW: the global venues),
            or of all venues when there are none; PREMIUM is each venue's price over it. For USDT
            (or USDC) the reference is the US dollar at the FX rate, USDT = USD: PREMIUM is each
            venue's tether premium (agg compare USDT). A venue that does not list the coin is
            shown as not listed and does not fail the command. Several coins are compared at once,
            one block each (JSON: {"comparisons":[...]}, CSV: one table); the FX rates are asked
            for once.
            The FX rate is the freshest one that answered, or the one of the source named with
            --fx (then the only FX source asked); a rate older than --max-fx-age (default 3 days,
            counted from the newest price) is refused, as agg premium refuses it: the conversions
            needing it fail with why, exit 1.
            The exchange rates fetched are stored as snapshots in the local database (as agg rates
            does); while the stored USD snapshot's next update is still to come, it is used
            without asking the FX source (--refresh asks anyway; --offline neither reads nor
            writes the database).
            """
    )
}
