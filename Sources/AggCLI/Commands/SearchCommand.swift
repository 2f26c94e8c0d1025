import AggCore
import AggJSON
import FoundationEssentials

/// `agg search`: markets whose symbol or published name matches what was typed, across venues.
public enum SearchCommand: Command {
    static let quote = Option<String>(
        "quote", short: "q", value: "CUR", help: "Only markets quoted in this currency.", parser: .assetCode)
    static let limit = Setting(
        Option<Int>("limit", short: "n", value: "N", help: "", parser: .wholeNumber(in: 1...maximumLimit)),
        help: "Show at most N results, up to \(maximumLimit)", builtIn: defaultLimit, shown: { "\($0)" })

    public static let spec = CommandSpec(
        name: "search",
        summary: "Find markets by symbol or by Korean or English name, with the last price.",
        arguments: "QUERY...",
        options: [CommonOptions.exchange, quote, limit] + CommonOptions.network,
        positionals: (1, nil),
        examples: [
            "agg search ET",
            "agg search 비트코인",
            "agg search bitcoin --quote KRW --format json",
        ],
        discussion: """
            Symbols match first by prefix, then anywhere (ET finds ETH and ETC before VET); names
            match where a venue publishes them (Upbit gives Korean and English names). The last
            price is shown when the venue gives every ticker in one request. Several words are
            one query: agg search bitcoin cash. A venue whose list takes several requests shows
            what answered; each failed request is one line on stderr (and an entry in JSON
            errors) and the exit code is 1. An entry of a list that does not read is left out
            and costs only itself (named under AGG_DEBUG, and in JSON errors). --quote asks only
            for that currency's list.
            """
    )

    static let defaultLimit = 30
    static let maximumLimit = 1000

    public static func run(_ arguments: ParsedArguments, context: CLIContext) async throws(AggError)
        -> ExitCode
    {
        let run = try NetworkRun(arguments, context: context)
        let request = try SearchRequest(arguments, options: run.options, registry: context.registry)
        try run.announce(request.venues.map(\.id))
        let service = SearchService(factory: run.factory)
        let result = try await run.during("searching \(request.venues.map(\.id).joined(separator: ", "))") {
            () async throws(AggError) in try await service.run(request)
        }
        run.write(
            SearchRendering(query: request.query, rows: result.rows, failures: result.failures, skipped: result.skipped)
        )
        // A skipped entry costs only its own market: named under AGG_DEBUG, not a failure.
        for entry in result.skipped { context.debug(entry.description) }
        return run.report(result.failures.map { "agg: \($0.line)" }, failed: !result.failures.isEmpty)
    }
}
