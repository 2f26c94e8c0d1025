import AggCore
import AggOptions
import AggServer
import AggServices

/// What `agg serve` was asked, checked before anything listens: the address, the token, the
/// venues and FX sources to poll and the interval.
package struct ServeRequest: Sendable {
    /// Why the request was refused: the token (its own message and exit code, 64 or 78), or an
    /// error `CLI.run` reports.
    package enum Failure: Error {
        case token(ServeToken.Failure)
        case refused(AggError)
    }

    var address: ListenAddress
    var token: BearerToken?
    /// The network options; `--offline` never applies to a server.
    var options: NetworkOptions
    var plan: ServePlan
    /// Seconds between polls.
    var interval: Double
    /// Whether the venues that declare `.stream` are followed on their streams after the first
    /// poll (not with `--no-stream`).
    var streams: Bool
    /// `--alert` rules checked on each poll's board, and where alerts go.
    package var alerts: AlertRequest?

    /// - Parameter warn: takes the warning for `--token` (visible in `ps`) as soon as it is known,
    ///   before any later refusal.
    package init(_ arguments: ParsedArguments, context: CLIContext, warn: (String) -> Void) throws(Failure) {
        let address = arguments.value(ServeOptions.listen)
        let resolved: ServeToken.Resolved
        switch ServeToken.resolve(
            flag: arguments[ServeOptions.token], file: arguments[ServeOptions.tokenFile],
            environment: context.environment)
        {
        case .success(let value): resolved = value
        case .failure(let failure): throw .token(failure)
        }
        if let warning = resolved.warning { warn(warning) }
        let token = resolved.token.flatMap(BearerToken.init)
        let polling: Polling
        do throws(AggError) {
            guard address.isLoopback || token != nil else {
                throw .usage(
                    "listening on \(address) beyond loopback needs a token: --token-file, AGG_TOKEN or --token")
            }
            polling = try Polling(arguments, context: context)
            let venues = polling.plan.venues.map(\.descriptor)
            alerts = try AlertRequest.make(
                arguments,
                scope: .board(
                    command: "agg serve", venues: venues,
                    // /v1/premium's board: serve has no --in, so the premium's own default.
                    currency: PremiumCommand.currency.builtIn),
                context: context)
        } catch {
            throw .refused(error)
        }
        self.address = address
        self.token = token
        options = polling.options
        plan = polling.plan
        interval = polling.interval
        streams = !arguments[ServeOptions.noStream]
    }

    /// What to poll and how often.
    private struct Polling {
        var options: NetworkOptions
        var plan: ServePlan
        var interval: Double

        init(_ arguments: ParsedArguments, context: CLIContext) throws(AggError) {
            options = try NetworkOptions(arguments, context: context)
            options.offline = false
            plan = try ServePlan(
                registry: context.registry, exchanges: options.exchanges.ids,
                fx: arguments.flag(ServeOptions.fx) ?? [], coins: arguments.value(ServeOptions.coins))
            interval =
                arguments.flag(ServeOptions.interval) ?? max(ServeOptions.defaultInterval, plan.minimumInterval)
            guard interval >= plan.minimumInterval else {
                throw .usage(
                    "--interval \(RateText.format(interval)) is too short for the venues' rate limits: at least \(RateText.format(plan.minimumInterval.rounded(.up))) s"
                )
            }
        }
    }
}
