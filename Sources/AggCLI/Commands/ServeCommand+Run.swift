import AggCore
import AggOptions
import AggServe
import AggServer
import AggServices
import FoundationEssentials

extension ServeCommand: Command {
    static func run(_ arguments: ParsedArguments, context given: CLIContext) async throws(AggError)
        -> ExitCode
    {
        var context = given
        let console = context.console
        let request: ServeRequest
        do throws(ServeRequest.Failure) {
            request = try ServeRequest(arguments, context: context) { console.printError("agg: warning: \($0)") }
        } catch {
            return try ServeRendering.refused(error, console: console)
        }
        // /v1/history reads what agg record wrote: --store, else the config file's, else agg's database.
        if context.historyStore == nil {
            context.historyStore = try await HistoryStores.open(arguments, context: context)
        }
        do throws(HTTPServerError) {
            try await ServeService(context: context).run(
                request, alerts: request.alerts?.setup(console: context.console), interrupts: context.interrupts
            ) {
                console.printError(ServeRendering.line($0))
            }
        } catch {
            return ServeRendering.unavailable(error, console: console)
        }
        return .success
    }
}
