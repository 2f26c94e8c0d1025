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
        let output = WatchOutput(request, context: context)
        if request.stream {
            let watch = StreamWatch(
                output: output, service: LiveQuoteService(factory: factory, context: context), request: request.live,
                count: request.count, clock: context.makeStreamClock(), debug: { context.debug($0) })
            return try await output.finish(await watch.run(interrupts: context.interrupts()))
        }
        let service = WatchService(factory: factory, registry: context.registry, now: context.now)
        let end = await service.run(request, initial: output.begin(), interrupts: context.interrupts()) {
            refresh, number, state in
            await output.show(refresh, number: number, state: &state)
        }
        return try await output.finish(end)
    }
}
