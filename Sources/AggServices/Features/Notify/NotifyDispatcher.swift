import AggCore

/// Every `--notify` destination of one run, each with its outbox: what `AlertDelivery` hands
/// alerts to. Handing over never waits; `finish` drains the outboxes when the command ends
/// (a stop signal included), each within `drainDeadline`.
package struct NotifyDispatcher: Sendable {
    /// Ten seconds to send what is queued once the command stops.
    package static let defaultDrainDeadline: Double = 10

    package let outboxes: [NotifyOutbox]
    package var drainDeadline: Double

    package init(outboxes: [NotifyOutbox], drainDeadline: Double = defaultDrainDeadline) {
        self.outboxes = outboxes
        self.drainDeadline = drainDeadline
    }

    /// Queues `message` for every destination.
    package func send(_ message: NotifyMessage) {
        for outbox in outboxes { outbox.enqueue(message) }
    }

    /// Drains every outbox at once, within the deadline; their counts, in order.
    package func finish() async -> [NotifyCounts] {
        let deadline = drainDeadline
        return await concurrentMap(outboxes) { outbox in await outbox.finish(deadline: deadline) }
    }
}

/// The `--notify` part of a run's alert request: the destinations, checked, with their
/// secrets read, and how to reach them. `dispatcher(console:)` starts the outboxes.
package struct NotifyPlan: Sendable {
    package var destinations: [NotifyDestination]
    package var requests: NotifyRequests
    /// Makes the HTTP client (libcurl in the executable).
    package var makeHTTPClient: @Sendable (HTTPTimeouts) -> any HTTPClient
    package var clock: RetryClock = .system
    package var limits: (@Sendable (NotifyDestination) -> NotifyLimits) = NotifyLimits.standard
    package var drainDeadline = NotifyDispatcher.defaultDrainDeadline

    package init(
        destinations: [NotifyDestination], requests: NotifyRequests,
        makeHTTPClient: @escaping @Sendable (HTTPTimeouts) -> any HTTPClient
    ) {
        self.destinations = destinations
        self.requests = requests
        self.makeHTTPClient = makeHTTPClient
    }

    /// The destinations `texts` name (each once, in order), with the secrets they need from
    /// `environment` and `secretFile`; a usage error for a bad one.
    package static func make(
        _ texts: [String], secretFile: String?, environment: [String: String],
        makeHTTPClient: @escaping @Sendable (HTTPTimeouts) -> any HTTPClient
    ) throws(AggError) -> NotifyPlan {
        var destinations: [NotifyDestination] = []
        for text in texts {
            let destination = try NotifyDestination.parse(text)
            if !destinations.contains(destination) { destinations.append(destination) }
        }
        let secrets = try NotifySecrets.load(for: destinations, secretFile: secretFile, environment: environment)
        return NotifyPlan(
            destinations: destinations, requests: NotifyRequests(secrets: secrets, environment: environment),
            makeHTTPClient: makeHTTPClient)
    }

    /// The sender of one run: one HTTP client for every destination.
    package func sender() -> NotifySender {
        NotifySender(http: makeHTTPClient(requests.timeouts), clock: clock, secrets: requests.secrets.all)
    }

    /// Starts one outbox a destination; their lines go to `console`'s stderr.
    package func dispatcher(console: Console) -> NotifyDispatcher {
        let sender = self.sender()
        return NotifyDispatcher(
            outboxes: destinations.map { destination in
                NotifyOutbox(
                    destination: destination, limits: limits(destination), requests: requests, sender: sender,
                    report: { console.printError($0) })
            }, drainDeadline: drainDeadline)
    }
}
