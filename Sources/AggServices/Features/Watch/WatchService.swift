import AggCore

/// `agg watch`'s use case: `agg quote`'s fetch, and the transfer status its alert rules need,
/// every interval until the count is done or a stop signal comes (no terminal: each refresh's
/// answers go to the caller, which shows them).
package struct WatchService: Sendable {
    /// One refresh's answers.
    package struct Refresh: Sendable {
        package var outcomes: [QuoteService.Outcome]
        /// The transfer status asked for the alert rules (empty without such rules).
        package var transfers: TransferStatusService.Report

        /// A refresh of `outcomes`, with the transfer status asked for the alert rules (none by
        /// default: `--stream` asks none).
        package init(
            outcomes: [QuoteService.Outcome],
            transfers: TransferStatusService.Report = TransferStatusService.Report(rows: [], errors: [])
        ) {
            self.outcomes = outcomes
            self.transfers = transfers
        }
    }

    var quotes: QuoteService
    var transferStatus: TransferStatusService

    package init(factory: AdapterFactory, registry: AdapterRegistry, now: @escaping @Sendable () -> Timestamp) {
        quotes = QuoteService(factory: factory, registry: registry, caches: false, now: now)
        transferStatus = TransferStatusService(factory: factory, now: now)
    }

    /// One refresh: the quotes, and the transfer status at the same time when the rules need it.
    func refresh(_ request: WatchRequest) async throws(AggError) -> Refresh {
        guard let transfers = request.transfers else {
            return Refresh(
                outcomes: try await quotes.fetch(request.plan),
                transfers: TransferStatusService.Report(rows: [], errors: []))
        }
        async let asked = transferStatus.run(coins: transfers.coins, venues: transfers.venues)
        let outcomes = try await quotes.fetch(request.plan)
        let report = await asked
        return Refresh(outcomes: outcomes, transfers: report)
    }

    /// Refreshes every `request.interval` until `request.count` refreshes are done, `show` says
    /// to stop, or `interrupts` delivers a stop signal. `show` gets each refresh, its number
    /// (from 1) and the state it carries.
    package func run<State: Sendable>(
        _ request: WatchRequest, initial: State, interrupts: AsyncStream<Void>,
        show: @escaping @Sendable (Refresh, Int, inout State) async -> Bool
    ) async -> RefreshLoop.End<State> {
        let loop = RefreshLoop(interval: request.interval, count: request.count)
        return await loop.run(initial, interrupts: interrupts) { state, number throws(AggError) in
            let refresh = try await self.refresh(request)
            if Task.isCancelled { return false }
            return await show(refresh, number, &state)
        }
    }
}
