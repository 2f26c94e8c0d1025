import AggCore
import AggOptions

/// `agg premium`: the premium board, every coin listed both on local (KRW) venues and on global
/// ones, with each local venue's premium on the FX and the USDT basis.
package enum PremiumCommand {
    package static let spec = CommandSpec(
        name: "premium",
        summary: "The premium board: every coin listed in Korea and abroad, with each venue's premium.",
        arguments: "[SYMBOL...]",
        options: [
            CommonOptions.exchange, currency, CommonOptions.fxSource, CommonOptions.maxFXAge, basis, sort, minVolume,
            top, notional, net, watch, interval, count, stream, Settings.staleAfter,
        ]
            + AlertOptions.all + CommonOptions.network,
        positionals: (0, nil),
        examples: [
            "agg premium",
            "agg premium BTC ETH XRP --basis usdt",
            "agg premium --sort volume --min-volume 1000000000 --top 20",
            "agg premium --fx frankfurter --format json",
            "agg premium --notional 10M --net --top 10",
            "agg premium --watch --interval 30 --top 30",
            "agg premium BTC --watch --alert 'upbit:BTC premium > 3%' --alert-log alerts.jsonl",
        ],
        discussion: """
            Each venue is asked once for every ticker (its all-tickers request), and each FX
            source once, all at the same time. A coin appears when at least one local venue (one
            quoting in the local currency) and one global venue (quoting in USD or USDT) list it.
            The global reference is the median of the global venues' prices in dollars (USDT =
            USD). PREMIUM is a local venue's price over that reference converted at the FX rate;
            USDT PREM is over the reference converted at USDT's price on the same venue, which
            takes the tether premium out. The tether premium (USDT's local price over the FX rate)
            heads the board. A price more than 50% away from the others is most likely another
            coin under the same ticker: it is marked and left out of the reference, and it never
            ranks a coin nor fires an alert. USDT's own row is measured against one US dollar, as the
            tether line is. With --sort premium, coins go by the premium shown first (USDT PREM with
            --basis usdt). Favorite coins
            come first. A coin whose deposits or withdrawals are closed on a venue (from the
            venues that publish transfer status, as agg status shows) is marked: its premium
            cannot be arbitraged there. With --watch the board is redrawn in place on a terminal (one JSON line,
            table or CSV rows per refresh otherwise); each refresh asks every venue once, and an FX
            source only when it is due: at its table's next update, a minute to five minutes
            after the last request, later after failures (see docs/serve.md).
            With --watch, --alert rules (last, premium, usdtPremium, change, withdraw/deposit
            closed) are checked on each refresh's board, with no extra request; an alert is one
            line on stderr, a line of --alert-log and a run of --on-alert (see docs/alerts.md).
            Exit status with --watch: 0, 1 when a source failed in the last refresh, 74 when
            --alert-log could not be written.
            With --notional AMOUNT (in --in's currency; 10M, 2.5K, no separators) the coins with
            the most volume (--top N, 30 by default; the board is not cut then) are priced both ways at that size from the
            venues' order books: KIMCHI buys on a global venue's asks and sells on the local
            venue's bids, REVERSE buys on the local asks and sells on a global venue's bids, both
            at the board's FX rate; the global venue giving the higher percent is shown. Without
            --net no fee is charged (the premium of the average prices at that size); --net
            subtracts both taker fees and the withdrawal fee of the cheapest network open both
            ways, as agg arb does (an unknown fee is said, never guessed). A book that cannot
            carry the notional shows what it fills (fills 3.2M of 10M); the other coins keep their
            last price only. Upbit's books come in one request; other venues' one a market,
            as many as each venue's rate limit allows within 2 s, the coins with the most
            volume first.
            """
    )
}
