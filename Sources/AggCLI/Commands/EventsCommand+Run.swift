import AggCore
import AggOptions
import AggServices

extension EventsCommand: Command {
    static func run(_ arguments: ParsedArguments, context: CLIContext) async throws(AggError) -> ExitCode {
        let request = try EventsRequest(arguments, context: context)
        let store = try await HistoryStores.open(arguments, context: context, forReading: true)
        let report = try await EventsService(store: store).run(request.query)
        Output.write(
            EventsRendering(report: report), format: request.format,
            style: TextStyle.resolve(arguments, context: context), console: context.console)
        return .success
    }
}
