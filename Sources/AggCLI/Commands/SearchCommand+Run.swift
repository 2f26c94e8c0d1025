import AggCore
import AggJSON
import AggOptions
import AggServices
import FoundationEssentials

extension SearchCommand: Command {
    static func run(_ arguments: ParsedArguments, context: CLIContext) async throws(AggError)
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
