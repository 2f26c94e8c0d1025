import AggCore
import AggOptions

/// `agg record`: a long-running collector that stores every venue's tickers, the FX rates and
/// optionally the premium board every interval, for `agg history`.
package enum RecordCommand {
    package static let spec = CommandSpec(
        name: "record",
        summary: "Record every venue's prices, the FX rates and the premium board over time, for agg history.",
        arguments: "[SYMBOL...]",
        options: [
            CommonOptions.exchange, RecordOptions.premium, RecordOptions.events, RecordOptions.interval,
            RecordOptions.retain, RecordOptions.count, RecordOptions.quiet, RecordOptions.stream, Settings.store,
        ] + AlertOptions.all + [
            CommonOptions.timeout,
            CommonOptions.offline,
        ],
        positionals: (0, nil),
        examples: [
            "agg record --premium",
            "agg record BTC ETH --exchange upbit,binance --interval 30s --retain 7d",
            "agg record --premium --quiet &",
            "agg record --events --alert 'upbit:* listed'",
            "agg record BTC ETH --exchange upbit,binance --stream --interval 1s",
        ],
        discussion: """
            Every interval each venue is asked once for all its tickers (coins named as
            SYMBOLs are kept, the others dropped; a venue without an all-tickers request is asked
            for each named coin), each FX source only when it is due (at its table's next update, a
            minute to five minutes after the last request, later after failures), and with
            --premium the premium board is made from the same tickers. One tick is stored in
            one transaction, with the time it was fetched, in the database (see agg config path).
            Each venue has its own deadline within the tick (half the interval, at most --timeout,
            retries included): a slow or failing venue is reported on stderr with its own error,
            one line each, and never delays the others or the next tick. A venue whose rate limit
            cannot take a request every interval is fetched every few ticks, and agg says so.
            Rows older than --retain are deleted in the background, a thousand at a time.
            Several recorders may share the database: each venue is recorded by one of them
            (a lease renewed every tick, lasting three intervals). SIGTERM or Ctrl-C finishes the
            tick in flight and exits 0; a killed recorder loses at most that tick, and started
            again on the same host and data folder takes its venues back at once. Progress: a
            status line on a terminal, one line a tick otherwise, none with --quiet.

            With --events each venue's event sources (market lists, cautions and warnings,
            notices, transfer status) are observed too, each on its own schedule (market lists
            every 5 minutes, notices every minute: never sooner than the source allows,
            whatever --interval), at the first tick due; each change is stored once, as agg
            events lists it, even with several recorders on one database. The first observation
            of a source is its baseline and raises nothing. A failing source is said once on
            stderr when it fails and once when it answers again, and costs only itself.

            With --stream the named coins are followed on the WebSocket streams of the venues
            that have one, and each tick records the latest fresh quote of each market at that
            moment: no REST request while a stream is live. While a stream is down and
            reconnecting the tick asks REST; after a minute without it the markets are polled
            over REST and those answers are recorded. A quote whose stream is down is never
            recorded as fresh. Venues without a stream are asked as without --stream. Each
            recorded price keeps the venue's time and the time agg received it (agg history
            shows its age).
            """
    )
}
