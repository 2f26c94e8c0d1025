import AggCore
import AggOptions
import AggServices

extension StatusCommand: Command {
    static func run(_ arguments: ParsedArguments, context: CLIContext) async throws(AggError)
        -> ExitCode
    {
        let run = try NetworkRun(arguments, context: context)
        let request = try StatusRequest(arguments, options: run.options, registry: context.registry)
        try run.announce(request.venues.map(\.id))
        let report = await TransferStatusService.withFees(factory: run.factory).run(request)
        if !report.rows.isEmpty || run.options.format == .json { run.write(TransferStatusRendering(report: report)) }
        // One line a failure on stderr in every format, as every command does; JSON also has them.
        return run.report(report.errors.map { "agg: \($0.description)" }, failed: !report.errors.isEmpty)
    }
}
