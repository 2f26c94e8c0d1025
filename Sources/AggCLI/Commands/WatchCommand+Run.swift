import AggCore
import AggOptions
import AggServices

extension WatchCommand: Command {
    static func run(_ arguments: ParsedArguments, context: CLIContext) async throws(AggError)
        -> ExitCode
    {
        let request = try WatchRequest(arguments, context: context)
        let factory = AdapterFactory(context: context, options: request.options)
        try factory.announceOffline(venues: request.plan.venues)
        let service = WatchService(factory: factory, registry: context.registry, now: context.now)
        let output = WatchOutput(request, context: context)
        let end = await service.run(request, initial: output.begin(), interrupts: context.interrupts()) {
            refresh, number, state in
            await output.show(refresh, number: number, state: &state)
        }
        return try await output.finish(end)
    }
}
