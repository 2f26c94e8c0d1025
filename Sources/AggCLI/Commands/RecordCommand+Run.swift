import AggCore
import AggOptions
import AggServices

extension RecordCommand: Command {
    static func run(_ arguments: ParsedArguments, context: CLIContext) async throws(AggError) -> ExitCode {
        try await run(arguments, context: context, clock: .system)
    }

    /// `run` on `clock`, which tests replace.
    static func run(
        _ arguments: ParsedArguments, context: CLIContext, clock: RecorderClock,
        observer: (CLIContext, NetworkOptions, [String]) throws(AggError) -> any EventObserving = {
            try EventObservingBinding.make(context: $0, options: $1, venues: $2)
        }
    ) async throws(AggError) -> ExitCode {
        let request = try RecordRequest(arguments, context: context)
        let factory = AdapterFactory(context: context, options: request.options, clock: clock.retry)
        try factory.announceOffline(venues: request.sources)
        let store = try await HistoryStores.open(arguments, context: context)
        // The identity's lock is held to the end of the run.
        let identity = RecorderIdentity.claim(environment: context.environment)
        let events =
            request.events
            ? EventRecording(
                observer: try observer(context, request.options, request.plan.venues.map(\.id)), store: store)
            : nil
        let streams = request.live.map { live in
            RecordStreams(service: LiveQuoteService(factory: factory, context: context), request: live) { line in
                context.console.printError("agg: " + line)
            }
        }
        let service = RecordService(
            factory: factory, store: store, clock: clock, holder: identity.holder, settings: request.settings,
            events: events, streams: streams)
        let status = await RecordOutput(request, context: context).run(service, request, interrupts: context.interrupts)
        streams?.stop()
        withExtendedLifetime(identity) {}
        return status
    }
}
