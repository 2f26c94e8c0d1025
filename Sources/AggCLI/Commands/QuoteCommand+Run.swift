import AggCore
import AggOptions
import AggServices
import FoundationEssentials

extension QuoteCommand: Command {
    static func run(_ arguments: ParsedArguments, context: CLIContext) async throws(AggError)
        -> ExitCode
    {
        let run = try NetworkRun(arguments, context: context)
        let request = try QuoteRequest(arguments, options: run.options, context: context)
        try run.announce(request.venues)
        // Live runs create the database to cache their quotes; offline runs only read favorites
        // from one that exists, so that their output stays that of the recordings.
        let environment = context.environment
        let live = !run.options.offline
        let service = QuoteService(
            factory: run.factory, registry: context.registry,
            openStore: { LocalStore.bestEffort(environment: environment, create: live) }, caches: live,
            now: context.now)
        let answer = try await run.during("asking \(request.venues.joined(separator: ", "))") {
            () async throws(AggError) in try await service.run(request)
        }
        let failures = FailureGroup.groups(answer.outcomes).map(\.line)
        let rendering = QuoteRendering(
            outcomes: answer.outcomes, aging: QuoteAging(now: context.now(), staleAfter: request.staleAfter))
        let code = run.finish(rendering, problems: failures, failed: !failures.isEmpty)
        // The answer is out before the cache is written: the user never waits for the cache.
        context.debug(answer.rememberQuotes())
        return code
    }
}
