import AggCore
import AggOptions
import AggServices
import FoundationEssentials

extension CandlesCommand: Command {
    static func run(_ arguments: ParsedArguments, context: CLIContext) async throws(AggError)
        -> ExitCode
    {
        var run = try NetworkRun(arguments, context: context)
        let request = try CandlesRequest(arguments, options: run.options, registry: context.registry)
        if request.chart { run.options.format = .table }
        let candles = try await run.fetch("\(request.target.market) candles", from: request.target) {
            service async throws(AggError) in try await service.run(request)
        }
        let bars = CandlesRendering(candles: candles, target: request.target, interval: request.interval)
        return request.chart
            ? run.finish(CandlesChartRendering(bars: bars), failed: false) : run.finish(bars, failed: false)
    }
}
