import AggCore
import AggOptions
import AggServer
import AggServices
import FoundationEssentials

/// `agg serve`: one poller fetches every venue once per interval and an HTTP server answers
/// every client from that one snapshot, with the CLI's JSON, Prometheus metrics and a stream
/// of board updates.
package enum ServeCommand {
    package static let spec = CommandSpec(
        name: "serve",
        summary: "Serve the board over HTTP: JSON endpoints, Prometheus metrics and a live stream.",
        arguments: "",
        options: [
            ServeOptions.listen, ServeOptions.interval, ServeOptions.token, ServeOptions.tokenFile,
            CommonOptions.exchange,
            ServeOptions.fx, ServeOptions.coins, ServeOptions.noStream, CommonOptions.timeout,
            Settings.store,
        ] + AlertOptions.all,
        positionals: (0, 0),
        examples: [
            "agg serve",
            "agg serve --listen 127.0.0.1:9000 --interval 10s --fx frankfurter",
            "agg serve --listen 0.0.0.0:8080 --token-file /etc/agg/token",
        ],
        discussion: """
            One poller asks each venue once per interval (its all-tickers request; one ticker per
            --coins coin on a venue without one), each FX source only when it is due (at its table's
            next update, a minute to five minutes after the last request, later after failures),
            and the transfer-status lists; every client is answered from the snapshot of the last
            poll, so the load on the venues does not grow with clients. Endpoints:
            /v1/quote?symbol=BTC&exchange=bithumb, /v1/compare?symbol=BTC,
            /v1/premium, /v1/rates?base=USD&to=KRW&source=all, /v1/status?symbol=ETH,
            /v1/exchanges, /v1/history?symbol=BTC&since=24h (from --store, where agg record
            writes), /v1/stream (server-sent events of the board), /metrics (Prometheus) and /healthz. Each JSON body is what the matching
            command prints with --format json. The server listens on loopback unless --listen
            says otherwise, and beyond loopback it refuses to start without a token (--token-file,
            AGG_TOKEN or --token).
            ExchangeRate-API's terms forbid redistributing its rates: for a shared service, poll
            the ECB's rates with --fx frankfurter. Ctrl-C or SIGTERM drains it: no new connections,
            requests in flight are answered and streams end within 5 s, then exit 0; exit 69 when
            the address cannot be listened on.
            --alert rules (as on agg premium --watch) are checked on each poll's board (/v1/premium),
            and delivered to stderr, --alert-log, --on-alert and --notify destinations; alerts
            queued when a stop signal comes are sent within 10 s. See docs/alerts.md.
            """
    )
}
