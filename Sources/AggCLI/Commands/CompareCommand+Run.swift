import AggCore
import AggJSON
import AggOptions
import AggServices
import AggStore
import FoundationEssentials

extension CompareCommand: Command {
    static func run(_ arguments: ParsedArguments, context: CLIContext) async throws(AggError)
        -> ExitCode
    {
        let run = try NetworkRun(arguments, context: context)
        let request = try CompareRequest(arguments, options: run.options, context: context)
        try run.announce(request.venues)
        let environment = context.environment
        let database: CompareService.OpenDatabase = { LocalStore.bestEffort(environment: environment, create: $0) }
        let answer = await CompareService.run(
            request, factory: run.factory, database: run.options.offline ? nil : database, now: context.now,
            debug: { [context] note in context.debug(note) })
        return run.finish(answer, problems: answer.problemLines, failed: answer.failed)
    }
}
