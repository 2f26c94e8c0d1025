import AggCore
import AggFixtures
import AggOptions
import FoundationEssentials

/// Everything a command needs from the outside world, passed in explicitly so that tests can
/// substitute any part.
package struct CLIContext: Sendable {
    package var registry: AdapterRegistry
    /// The process environment (or a test's).
    package var environment: [String: String]
    package var console: Console
    /// Makes the HTTP client for one command run; the executable passes the libcurl transport.
    package var makeHTTPClient: @Sendable (HTTPTimeouts) -> any HTTPClient
    /// Makes the WebSocket connector for one command run's streams, as `makeHTTPClient` makes
    /// the HTTP client: the executable passes AggTransport's `WebSocketClient`; tests pass theirs.
    /// The default has no transport: every stream fails to connect (and its venue polls REST).
    package var makeStreamConnector: @Sendable () -> any WebSocketConnector = { NoStreamTransport() }
    /// The clock of streams and of what follows them (REST polling while a stream is down,
    /// redraw pacing); tests pass one they move by hand.
    package var makeStreamClock: @Sendable () -> any StreamClock = { SystemStreamClock() }
    /// The current time.
    package var now: @Sendable () -> Timestamp
    /// Stop signals (Ctrl-C, SIGTERM, SIGHUP), for commands that run until stopped (`agg watch`). The executable
    /// passes `InterruptSignal.stream`; tests pass a stream they control.
    package var interrupts: @Sendable () -> AsyncStream<Void>
    /// Stop signals by number, for a one-shot command's spinner to end on (exit 128 + the
    /// number, its line erased). The executable's default is `InterruptSignal.signals`.
    package var stopSignals: @Sendable () -> AsyncStream<Int32> = InterruptSignal.signals
    /// The config file's settings. `CLI.run` loads them once per run, before the command.
    package var configuration: Configuration = .none
    /// Folders of venue files shipped with agg (the executable passes
    /// `DataVenueDirectory.locate()`); `CLI.run` adds their venues, and those in the `venues/`
    /// folder beside the config file, to `registry`.
    package var shippedVenueFolders: [URL] = []
    /// The clock of `--notify` retries, rate limits and drains; tests pass one that does not wait.
    package var notifyClock: RetryClock = .system
    /// Where `agg serve` reads `/v1/history` from; `nil` serves no history.
    package var historyStore: (any HistoryStore)? = nil

    package init(
        registry: AdapterRegistry, environment: [String: String], console: Console,
        makeHTTPClient: @escaping @Sendable (HTTPTimeouts) -> any HTTPClient,
        now: @escaping @Sendable () -> Timestamp = { Timestamp.now },
        interrupts: @escaping @Sendable () -> AsyncStream<Void> = InterruptSignal.stream
    ) {
        self.registry = registry
        self.environment = environment
        self.console = console
        self.makeHTTPClient = makeHTTPClient
        self.now = now
        self.interrupts = interrupts
    }
}

/// The connector of a context without a WebSocket transport: every connection fails at once.
package struct NoStreamTransport: WebSocketConnector {
    package init() {}

    package func connectStream(to url: String, headers: [HTTPHeader]) async throws -> any StreamConnection {
        throw StreamFault.unreachable("this build has no WebSocket transport")
    }
}

extension Timestamp {
    /// The current time from the system clock.
    package static var now: Timestamp {
        Timestamp(millisecondsSince1970: Int64((Date().timeIntervalSince1970 * 1000).rounded()))
    }
}

/// The options shared by commands that reach venues, resolved once per run: each from its
/// flag, else the config file, else the built-in default.
package struct NetworkOptions: Sendable {
    package var timeouts: HTTPTimeouts
    package var offline: Bool
    package var format: OutputFormat
    package var style: TextStyle
    /// The venues named by `--exchange`, else by the config file; empty means every venue.
    package var exchanges: ExchangeSelection
    /// The quote currency for bare symbols: `--quote`, else the config file's; `nil` means
    /// each venue's home currency.
    var quoteCurrency: String?

    package init(_ arguments: ParsedArguments, context: CLIContext) throws(AggError) {
        let settings = context.settings(arguments)
        let seconds = settings.value(Settings.timeout)
        timeouts = HTTPTimeouts(connect: min(HTTPTimeouts.standard.connect, seconds), total: seconds)
        offline = settings.value(Settings.offline)
        format = OutputFormat.resolve(settings, console: context.console)
        style = TextStyle.resolve(arguments, context: context)
        let selection = settings.resolve(Settings.exchanges)
        exchanges = ExchangeSelection(ids: selection.value ?? [], explicit: selection.source == .flag)
        quoteCurrency = settings.value(Settings.quote)
    }
}

/// Which venues to ask, and whether the user named them on the command line (then a venue
/// that cannot answer is an error rather than skipped).
package struct ExchangeSelection: Sendable, Equatable {
    /// Adapter ids, lower-case, in the order given; empty means every registered venue.
    package var ids: [String]
    /// Whether `--exchange` named them (as opposed to the config file).
    var explicit: Bool

    package init(ids: [String], explicit: Bool) {
        self.ids = ids
        self.explicit = explicit
    }
}

extension TextStyle {
    /// Colour from `--color`/`--no-color`, `NO_COLOR`, `TERM` and the terminal; the palette from
    /// `--palette`, else the config file, else the standard one.
    package static func resolve(_ arguments: ParsedArguments, context: CLIContext) -> TextStyle {
        TextStyle(
            enabled: decide(
                flag: arguments[CommonOptions.color]?.rawValue, noColor: arguments[CommonOptions.noColor],
                environment: context.environment, isTerminal: context.console.outputIsTerminal),
            palette: context.settings(arguments).value(Settings.palette))
    }
}

extension OutputFormat {

    /// The explicit choice, else the configured one, else a table on a terminal and JSON for
    /// pipes and scripts.
    static func resolve(_ flag: OutputFormat?, configured: OutputFormat? = nil, console: Console)
        -> OutputFormat
    {
        if let flag { return flag }
        if let configured { return configured }
        return console.outputIsTerminal ? .table : .json
    }

    /// The format `settings` give (`--format`, `AGG_FORMAT`, the file), else the one for
    /// `console`.
    package static func resolve(_ settings: SettingResolver, console: Console) -> OutputFormat {
        resolve(settings.value(Settings.format), console: console)
    }
}

/// Makes adapters for one command run, sharing one HTTP client.
package struct AdapterFactory: Sendable {
    package let context: CLIContext
    package let options: NetworkOptions
    private let http: any HTTPClient
    /// One token bucket per venue for the whole run, so that repeated or concurrent requests
    /// (watch, bulk commands) stay inside each venue's published rate.
    private let buckets: [String: TokenBucket]
    /// The clock of the token buckets and of retries' waits.
    private let clock: RetryClock

    /// - Parameter clock: what the token buckets and retries measure time with; `agg record`'s
    ///   tests pass a clock of their own.
    package init(context: CLIContext, options: NetworkOptions, clock: RetryClock = .system) {
        self.context = context
        self.options = options
        self.clock = clock
        self.http = context.makeHTTPClient(options.timeouts)
        self.buckets = Dictionary(
            uniqueKeysWithValues: context.registry.descriptors.map { descriptor in
                (descriptor.id, TokenBucket(rate: descriptor.requestsPerSecond, clock: clock))
            })
    }

    /// The adapters of a run with the options `arguments` give (`--timeout`, `--offline`, ...),
    /// resolved with `context`'s settings.
    package init(_ arguments: ParsedArguments, context: CLIContext) throws(AggError) {
        self.init(context: context, options: try NetworkOptions(arguments, context: context))
    }

    /// The base URL for `descriptor`: `AGG_<ID>_URL` when set, else the config file's, else the
    /// default.
    package func baseURL(for descriptor: AdapterDescriptor) -> String {
        context.configuration.baseURL(for: descriptor, environment: context.environment)
    }

    /// A new adapter for `id`, live or offline as the options say.
    package func adapter(id: String) throws(AggError) -> any VenueAdapter {
        let descriptor = try context.registry.requireDescriptor(id: id)
        let baseURL = baseURL(for: descriptor)
        let client: any HTTPClient
        if options.offline {
            let routes = try offlineRoutes(for: descriptor)
            client = OfflineHTTPClient(
                routes: routes, baseURL: AdapterEnvironment(baseURL: baseURL, http: http).baseURL)
        } else {
            let limited = buckets[descriptor.id].map {
                RateLimitedHTTPClient(base: http, bucket: $0, quotaHeader: descriptor.quotaHeader)
            }
            client = RetryingHTTPClient(base: limited ?? http, timeouts: options.timeouts, clock: clock)
        }
        return try context.registry.makeAdapter(
            id: descriptor.id,
            environment: AdapterEnvironment(
                baseURL: baseURL, http: client, settings: context.configuration.venueSettings[descriptor.id] ?? [:],
                notes: context.debugNotes ? AdapterNotes { [context] in context.debug($0) } : .ignored))
    }

    /// The fixture answers of `descriptor`'s venue.
    func offlineRoutes(for descriptor: AdapterDescriptor) throws(AggError) -> FixtureRoutes {
        let directory = FixtureDirectory.locate(environment: context.environment)
            .appendingPathComponent(descriptor.id)
        return try FixtureRoutes(directory: directory)
    }

    /// Says on stderr what `venues` answer from offline (recorded answers, sample data or both),
    /// and of when (each venue once).
    ///
    /// - Throws: `AggError.offline` when there is no folder of recordings at all, in one line
    ///   naming where agg looked, before any venue is asked.
    package func announceOffline(venues: [String]) throws(AggError) {
        guard options.offline else { return }
        if let problem = FixtureDirectory.problem(environment: context.environment) { throw .offline(problem) }
        var announced: Set<String> = []
        for venue in venues where announced.insert(venue).inserted {
            guard let descriptor = context.registry.descriptor(id: venue),
                let routes = try? offlineRoutes(for: descriptor)
            else { continue }
            context.console.printError(Self.offlineNotice(venue: venue, routes: routes))
        }
    }

    /// The `--offline` notice for `venue`: sample data is never called recorded.
    static func offlineNotice(venue: String, routes: FixtureRoutes) -> String {
        switch routes.data {
        case .recorded: "agg: offline: \(venue) answers from a recorded snapshot from \(routes.recorded)"
        case .sample: "agg: offline: \(venue) answers from sample data dated \(routes.recorded)"
        case .mixed:
            "agg: offline: \(venue) answers from a recorded snapshot from \(routes.recorded), with some sample data"
        }
    }
}

extension CLIContext {
    /// The resolver of `arguments`' settings in this run.
    package func settings(_ arguments: ParsedArguments) -> SettingResolver {
        SettingResolver(
            arguments: arguments, environment: environment, configuration: configuration, registry: registry)
    }
}
