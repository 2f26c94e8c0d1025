import AggCore
import AggOptions
import AggServices

extension TradesCommand: Command {
    static func run(_ arguments: ParsedArguments, context: CLIContext) async throws(AggError)
        -> ExitCode
    {
        let run = try NetworkRun(arguments, context: context)
        let request = try TradesRequest(arguments, options: run.options, registry: context.registry)
        let trades = try await run.fetch("\(request.target.market) trades", from: request.target) {
            service async throws(AggError) in try await service.run(request)
        }
        return run.finish(TradesRendering(trades: trades, target: request.target), failed: false)
    }
}
