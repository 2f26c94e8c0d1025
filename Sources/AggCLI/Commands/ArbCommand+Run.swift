import AggCore
import AggOptions
import AggServices

extension ArbCommand: Command {
    static func run(_ arguments: ParsedArguments, context: CLIContext) async throws(AggError)
        -> ExitCode
    {
        let run = try NetworkRun(arguments, context: context)
        let request = try ArbRequest(arguments, context: context)
        try run.announce(request.venues)
        let service = ArbService(
            factory: run.factory, fees: context.takerFeeLookup, now: context.now)
        let report = try await run.during(
            "asking \(request.from.id) and \(request.to.id) for the \(request.coin) route"
        ) { () async throws(AggError) in
            await service.run(request)
        }
        let lines = (report.problems + report.warnings).map { "agg: " + $0.message }
        return run.finish(ArbRendering(report: report), problems: lines, failed: report.failed)
    }
}
