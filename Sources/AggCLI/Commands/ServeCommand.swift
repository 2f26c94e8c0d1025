import AggCore
import AggServer
import FoundationEssentials

/// `agg serve`: one poller fetches every venue once per interval and an HTTP server answers
/// every client from that one snapshot, with the CLI's JSON, Prometheus metrics and a stream
/// of board updates.
public enum ServeCommand: Command {
    static let listen = Setting(
        Option<ListenAddress>(
            "listen", value: "ADDRESS", help: "",
            parser: ValueParser(expected: "an IP address and port such as 127.0.0.1:8080 or [::1]:8080") {
                ListenAddress.parse($0)
            }),
        help: "Listen on this address and port", builtIn: .standard, shown: \.description)
    static let interval = Setting(
        Option<Double>(
            "interval", short: "i", value: "DURATION", help: "",
            parser: .seconds(in: 1...86_400, expected: "seconds, such as 5 or 1m")),
        help: "Seconds between polls, never faster than a venue's rate limit allows",
        builtIn: DecidedPerRun("\(Int(defaultInterval))s, or longer when a venue's rate limit needs it"))
    static let token = Option<String>(
        "token", value: "TOKEN",
        help:
            "Require 'Authorization: Bearer TOKEN'; required beyond loopback. Visible in ps: prefer --token-file or AGG_TOKEN.",
        parser: ValueParser(expected: ServeToken.expected) { text throws(AggError) in try ServeToken.parseFlag(text) })
    static let tokenFile = Option<String>(
        "token-file", value: "PATH",
        help: "Read the token from PATH (one line of 16 to 256 printable characters), out of sight of ps.",
        parser: ValueParser(expected: "a file path") { $0.isEmpty ? nil : $0 })
    static let fx = Setting(
        Option<[String]>(
            "fx", value: "ID[,ID...]", help: "", completion: .exchangeIDs,
            parser: .list(of: .venueID, expected: "FX source ids such as frankfurter"), combine: +),
        help: "Poll only these FX sources (frankfurter, the ECB's rates, suits a shared service)",
        builtIn: DecidedPerRun("every FX source"))
    static let coins = Setting(
        Option<[String]>(
            "coins", value: "SYMBOL[,SYMBOL...]", help: "",
            parser: .list(of: .assetCode, expected: "coins such as BTC,ETH"), combine: +),
        help: "Coins to poll one by one on venues without an all-tickers request", builtIn: ["BTC", "ETH"],
        shown: { $0.joined(separator: ",") })

    /// The default poll interval in seconds.
    static let defaultInterval: Double = 5
    /// Event-stream clients at once, and the events queued for each before it is dropped.
    static let maximumStreams = 64
    static let streamQueue = 8
    /// Seconds a stop waits for requests in flight before it cuts them.
    static let drainSeconds: Double = 5

    public static let spec = CommandSpec(
        name: "serve",
        summary: "Serve the board over HTTP: JSON endpoints, Prometheus metrics and a live stream.",
        arguments: "",
        options: [
            listen, interval, token, tokenFile, CommonOptions.exchange, fx, coins, CommonOptions.timeout,
            Settings.store,
        ],
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
            """
    )

    public static func run(_ arguments: ParsedArguments, context given: CLIContext) async throws(AggError)
        -> ExitCode
    {
        var context = given
        let address = arguments.value(Self.listen)
        let resolved: ServeToken.Resolved
        switch ServeToken.resolve(
            flag: arguments[Self.token], file: arguments[Self.tokenFile], environment: context.environment)
        {
        case .success(let value): resolved = value
        case .failure(let failure):
            context.console.printError("agg: \(failure.message)")
            return failure.exitCode
        }
        if let warning = resolved.warning { context.console.printError("agg: warning: \(warning)") }
        let token = resolved.token.flatMap(BearerToken.init)
        guard address.isLoopback || token != nil else {
            throw .usage("listening on \(address) beyond loopback needs a token: --token-file, AGG_TOKEN or --token")
        }
        var options = try NetworkOptions(arguments, context: context)
        options.offline = false
        let plan = try ServePlan(
            registry: context.registry, exchanges: options.exchanges.ids, fx: arguments.flag(Self.fx) ?? [],
            coins: arguments.value(Self.coins))
        let interval = arguments.flag(Self.interval) ?? max(defaultInterval, plan.minimumInterval)
        guard interval >= plan.minimumInterval else {
            throw .usage(
                "--interval \(RateText.format(interval)) is too short for the venues' rate limits: at least \(RateText.format(plan.minimumInterval.rounded(.up))) s"
            )
        }
        // /v1/history reads what agg record wrote: --store, else the config file's, else agg's database.
        if context.historyStore == nil {
            context.historyStore = try await HistoryStores.open(arguments, context: context)
        }
        let runtime: ServeRuntime
        do throws(HTTPServerError) {
            runtime = try ServeRuntime(
                context: context, options: options, plan: plan, address: address, token: token,
                maximumStreams: maximumStreams, streamQueue: streamQueue)
        } catch {
            context.console.printError("agg: \(error.description)")
            return .unavailable
        }
        let server = runtime.server
        let poller = runtime.poller
        context.console.printError(
            "agg: serving on \(server.baseURL), polling \(plan.venues.count + plan.fxSources.count) sources every \(RateText.format(interval)) s"
        )
        let polls = Task { await poller.run(interval: interval) }
        for await _ in context.interrupts() { break }
        polls.cancel()
        await server.stop(drainingFor: drainSeconds)
        await polls.value
        context.console.printError("agg: stopped")
        return .success
    }
}

/// A listening server and its poller (which polls only when told): `agg serve` runs the poll
/// loop on it; tests poll by hand.
struct ServeRuntime: Sendable {
    let server: HTTPServer
    let app: ServeApp
    let poller: ServePoller
    let metrics: ServeMetrics
    let streams: EventStreamHub

    init(
        context: CLIContext, options: NetworkOptions, plan: ServePlan, address: ListenAddress, token: BearerToken?,
        limits: HTTPServerLimits = .standard, work: ServeLimits = .standard,
        maximumStreams: Int = ServeCommand.maximumStreams, streamQueue: Int = ServeCommand.streamQueue
    ) throws(HTTPServerError) {
        let metrics = ServeMetrics()
        let prefixes = context.registry.descriptors.map { descriptor in
            (
                prefix: context.configuration.baseURL(for: descriptor, environment: context.environment),
                id: descriptor.id
            )
        }.sorted { $0.prefix.count > $1.prefix.count }
        var polling = context
        let makeHTTPClient = context.makeHTTPClient
        polling.makeHTTPClient = { timeouts in
            MeteredHTTPClient(base: makeHTTPClient(timeouts), venues: prefixes, metrics: metrics)
        }
        let streams = EventStreamHub(maximumSubscribers: maximumStreams, queueLimit: streamQueue)
        let app = ServeApp(
            endpoints: ServeEndpoints(context: context, polled: plan.ids, history: context.historyStore), plan: plan,
            token: token, metrics: metrics, streams: streams, limits: work)
        server = try HTTPServer(address: address, limits: limits, handler: app, streams: streams)
        poller = ServePoller(
            plan: plan, factory: AdapterFactory(context: polling, options: options),
            venueDeadline: options.timeouts.total, now: context.now,
            publish: { snapshot, pollEnded in await app.publish(snapshot, pollEnded: pollEnded) })
        self.app = app
        self.metrics = metrics
        self.streams = streams
    }
}
