import AggCore
import AggOptions
import AggServices

extension PremiumCommand: Command {
    static func run(_ arguments: ParsedArguments, context: CLIContext) async throws(AggError)
        -> ExitCode
    {
        let run = try NetworkRun(arguments, context: context)
        let live = !run.options.offline
        let environment = context.environment
        let favorites = LocalStore.favorites(
            kind: .symbol, in: live ? LocalStore.bestEffort(environment: environment, create: false) : nil)
        let request = try PremiumRequest(arguments, options: run.options, context: context, favorites: favorites)
        let venues = request.service.venues
        let fxSources = request.service.fxSources
        // Checked before any request (or offline note), as every usage error is.
        let alerts = try AlertSetup.make(
            arguments, scope: request.alertScope, context: context)
        try run.announce(venues.map(\.id) + fxSources.map(\.id))
        let service = PremiumService(factory: run.factory, now: context.now)
        if let watch = request.watch, watch.stream {
            return try await PremiumStreamWatch(
                watch: PremiumWatch(
                    request: request, service: service, context: context, options: run.options, alerts: alerts),
                live: LiveQuoteService(factory: run.factory, context: context), interval: watch.interval,
                count: watch.count, clock: context.makeStreamClock()
            ).run()
        }
        if let watch = request.watch {
            return try await PremiumWatch(
                request: request, service: service, context: context, options: run.options, alerts: alerts
            ).run(interval: watch.interval, count: watch.count)
        }
        let history: PremiumService.OpenHistory = { LocalStore.bestEffort(environment: environment, create: false) }
        let answer = try await run.during("asking \((venues + fxSources).map(\.id).joined(separator: ", "))") {
            () async in await service.run(request, history: live ? history : nil)
        }
        let problems = request.problems(answer.result, debug: context.debugNotes)
        return run.finish(answer.rendering, problems: problems.lines, failed: problems.failed)
    }
}
