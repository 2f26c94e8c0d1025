import AggCore
import AggOptions
import AggServices
import FoundationEssentials

extension HistoryCommand: Command {
    static func run(_ arguments: ParsedArguments, context: CLIContext) async throws(AggError) -> ExitCode {
        let request = try HistoryRequest(arguments, context: context)
        let store = try await HistoryStores.open(arguments, context: context, forReading: true)
        let report = try await HistoryService(store: store).run(request)
        Output.write(
            HistoryRendering(report: report, chart: request.chart), format: request.format,
            style: TextStyle.resolve(arguments, context: context), console: context.console)
        return .success
    }
}
