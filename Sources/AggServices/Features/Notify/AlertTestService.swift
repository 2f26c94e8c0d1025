import AggCore
import AggOptions

/// `agg alert test`: the destinations to try, checked and with their secrets read, before
/// anything is sent.
package struct AlertTestRequest: Sendable {
    package var plan: NotifyPlan

    /// - Throws: a usage error for an action other than `test`, no destination (neither
    ///   `--notify` nor the config file's `notify`), a bad destination or a missing secret.
    package init(_ arguments: ParsedArguments, context: CLIContext) throws(AggError) {
        let action = arguments.positionals.first?.lowercased() ?? ""
        guard action == "test" else { throw .usage("unknown alert action '\(action)'; expected test") }
        let settings = context.settings(arguments)
        let destinations = settings.value(Settings.notify)
        guard !destinations.isEmpty else {
            throw .usage("agg alert test needs a destination: --notify URL (or the config file's notify)")
        }
        plan = try NotifyPlan.make(
            destinations, secretFile: settings.value(Settings.notifySecretFile), environment: context.environment,
            makeHTTPClient: context.makeHTTPClient)
        plan.clock = context.notifyClock
    }
}

/// Sends the sample alert to every destination of an `AlertTestRequest`, at once, and answers
/// each one's outcome, in the order given.
package struct AlertTestService: Sendable {
    package struct Report: Sendable, Equatable {
        package var results: [Result]

        package struct Result: Sendable, Equatable {
            package var destination: NotifyDestination
            package var outcome: NotifyOutcome
        }

        /// 0 when every destination answered 2xx; 69 when one was unreachable or kept failing;
        /// else 65 when one refused the alert.
        package var exitCode: ExitCode {
            var refused = false
            for result in results {
                switch result.outcome {
                case .delivered: continue
                case .refused: refused = true
                case .failed, .unreachable: return .unavailable
                }
            }
            return refused ? .dataRejected : .success
        }

        /// One line a destination: `telegram://123: delivered: HTTP 200: {"ok":true,...}`.
        package var lines: [String] {
            results.map { result in
                let word =
                    switch result.outcome {
                    case .delivered: "delivered"
                    case .refused: "refused"
                    case .failed: "failed"
                    case .unreachable: "unreachable"
                    }
                return "\(result.destination): \(word): \(result.outcome.description)"
            }
        }
    }

    package init() {}

    /// Sends `NotifyMessage.sample(at: time)` to each destination.
    package func run(_ request: AlertTestRequest, at time: Timestamp) async -> Report {
        let plan = request.plan
        let sender = plan.sender()
        let message = NotifyMessage.sample(at: time)
        let requests = plan.requests
        let outcomes = await concurrentMap(plan.destinations) { destination in
            await sender.send(requests.request(message, to: destination))
        }
        return Report(
            results: zip(plan.destinations, outcomes).map { Report.Result(destination: $0, outcome: $1) })
    }
}
