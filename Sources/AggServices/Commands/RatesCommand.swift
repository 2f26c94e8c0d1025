import AggCore
import AggJSON
import AggOptions
import AggStore
import FoundationEssentials

/// `agg rates`: the day's exchange rates from a base currency, each with its move since the
/// previous stored snapshot (▲ up, ▼ down), favorites first.
package enum RatesCommand {
    /// The command line `agg help` describes.
    package static let spec = CommandSpec(
        name: "rates",
        summary: "Show exchange rates from a base currency, with the change since the previous day.",
        arguments: "[BASE]",
        options: [to, threshold, keep, source, CommonOptions.refresh] + CommonOptions.network,
        positionals: (0, 1),
        examples: [
            "agg rates",
            "agg rates KRW --to USD,JPY,EUR",
            "agg rates USD --threshold 0.5 --format json",
            "agg rates USD --to KRW --source frankfurter",
            "agg rates --offline --format csv",
            "agg rates USD --to KRW --source all",
        ],
        discussion: """
            BASE is a three-letter currency code (default USD). Every answer is stored as a
            snapshot in the local database (see AGG_HOME) keyed by its source, base and the
            provider's update time (a later answer for the same time replaces it; --keep N
            snapshots per source and base are kept), and each rate is compared with the most
            recent stored snapshot of the same source older than it. A change greater than the
            threshold is marked ▲, one below minus the threshold ▼, anything else is flat; with
            nothing to compare with there is no trend (null in JSON). exchangerate and
            frankfurter (the ECB's reference rates, working days only) update once a day, so
            their arrows show the day's move; dunamu (Hana Bank, from USD, JPY, EUR, CNY, ... to
            KRW only) revises during the day.
            While the newest stored snapshot's next update is still to come, it answers without a
            request (--refresh asks anyway).
            A rate that is zero, negative or outside 1e-12 to 1e12 is refused: it is named on
            stderr (exit 1), the other rates are shown, and the table is not stored.
            --offline answers from the fixtures (Fixtures/, or AGG_FIXTURES: recorded answers and
            sample data) instead of the network and of the day's stored table; its answers are
            stored and compared like live ones, so point AGG_HOME elsewhere to keep them out of
            your database.
            Favorite currencies (agg favorites add KRW) are listed first.
            With --source all, one rate (--to, default KRW) is asked of every FX source at once,
            and for USD also the rate the market implies: USDT's price on every venue quoting in
            that currency (USDT = USD). Each is set against the median of the FX sources; nothing
            is stored.
            """
    )
}
