import AggCore
import AggJSON
import AggOptions
import AggServices
import AggStore
import FoundationEssentials

extension RatesCommand: Command {
    /// Runs the command; store failures are thrown as `AggError.store` (exit 70).
    static func run(_ arguments: ParsedArguments, context: CLIContext) async throws(AggError)
        -> ExitCode
    {
        let run = try NetworkRun(arguments, context: context)
        let request = try RatesRequest(arguments, registry: context.registry)
        // The store comes before the network: a database that cannot be used fails at once,
        // without spending a request of the provider's daily quota. `--source all` keeps nothing.
        let archive: any RatesArchive =
            if case .table = request { StoredRates(store: try LocalStore.open(context)) } else {
                KeptRates(tables: [:])
            }
        try run.announce(request.venues)
        let service = RatesService(
            factory: run.factory, registry: context.registry, now: context.now,
            debug: { [context] in context.debug($0) })
        let answer = try await service.run(request, archive: archive)
        return run.finish(answer, problems: answer.problemLines, failed: answer.failed)
    }
}
