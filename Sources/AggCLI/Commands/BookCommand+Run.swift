import AggCore
import AggOptions
import AggServices

extension BookCommand: Command {
    static func run(_ arguments: ParsedArguments, context: CLIContext) async throws(AggError)
        -> ExitCode
    {
        let run = try NetworkRun(arguments, context: context)
        let request = try BookRequest(arguments, options: run.options, registry: context.registry)
        let book = try await run.fetch("the \(request.target.market) order book", from: request.target) {
            service async throws(AggError) in try await service.run(request)
        }
        return run.finish(BookRendering(book: book, target: request.target), failed: false)
    }
}
