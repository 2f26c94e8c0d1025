import AggCore
import AggOptions

/// `agg watch`: the quote table, refreshed until Ctrl-C (or `--count` refreshes).
///
/// On a terminal the table is redrawn in place, with changed cells highlighted and ▲▼ for the
/// move since the previous refresh; elsewhere each refresh is printed as one block (one JSON
/// line, one table, or CSV rows), so the output can be piped and logged. Fetching and rendering
/// are `agg quote`'s own.
package enum WatchCommand {
    static let interval = Setting(
        Option<Double>(
            "interval", short: "i", value: "SECONDS", help: "",
            parser: .seconds(
                in: 0...WatchRequest.maximumInterval, positive: false, expected: "seconds, such as 2 or 0.5")),
        help:
            "Seconds between refreshes, at least \(Int(WatchRequest.minimumInterval)) and within each venue's rate limit (0.5, 5s, 1m)",
        builtIn: DecidedPerRun("\(Int(WatchRequest.defaultInterval))s, or longer when a venue's rate limit needs it"))
    static let count = Option<Int>(
        "count", short: "c", value: "N", help: "Stop after N refreshes.",
        parser: .wholeNumber(in: 1...Int.max, expected: "a whole number of refreshes, 1 or more"))
    static let stream = Flag(
        "stream",
        help:
            "Follow the venues' live streams: one line (or a redraw, at most 4 a second) per change; venues without one poll"
    )

    package static let spec = CommandSpec(
        name: "watch",
        summary: "Refresh the quotes of coins until Ctrl-C, highlighting what changed.",
        arguments: "SYMBOL...",
        options: [CommonOptions.exchange, CommonOptions.quote, interval, count, stream, Settings.staleAfter]
            + AlertOptions.all
            + CommonOptions.network,
        positionals: (1, nil),
        examples: [
            "agg watch BTC ETH --exchange bithumb",
            "agg watch BTC --interval 5 --count 3 --format json",
            "agg watch BTC ETH -e upbit --stream --count 3 --format json",
            "agg watch BTC ETH -e upbit --alert 'BTC last < 80000000' --alert-log alerts.jsonl",
        ],
        discussion: """
            Stop with Ctrl-C (or SIGTERM, or SIGHUP unless it is ignored, as under nohup); the
            terminal is left as it was (cursor shown, colours reset). When the output is not a
            terminal, each refresh prints one block: a JSON line, a table followed by a blank line,
            or CSV rows under a single header. Exit status: 0 (also when stopped by a signal), or
            1 when a venue failed in the last refresh, or 74 when --alert-log could not be
            written. --alert rules on watch use last and change (premiums are on agg premium
            --watch) and withdraw/deposit closed, for which the venues' transfer status is asked
            each refresh; see docs/alerts.md. With --stream, watch follows the venues' WebSocket
            streams instead of polling: off a terminal each change prints one block of the quotes
            that changed (--count counts those blocks), on a terminal the table is redrawn at most
            4 times a second; a venue without a stream polls every --interval and says so once; a
            venue whose stream is down says so once on stderr and its quotes are shown stale until
            the stream is back (after 60 s without it, its quotes are polled over REST).
            """
    )
}
