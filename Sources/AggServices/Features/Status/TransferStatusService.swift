import AggCore

/// Transfer status: each venue that publishes it is asked once for its whole list, all at the
/// same time, and the rows of the coins asked are kept.
package struct TransferStatusService: Sendable {
    /// What came back: rows in venue, coin, network order, and one error per venue that failed
    /// or coin a venue does not list.
    package struct Report: Sendable, Equatable {
        package var rows: [TransferStatus]
        package var errors: [AggError]

        package init(rows: [TransferStatus], errors: [AggError]) {
            self.rows = rows
            self.errors = errors
        }

        /// Per venue and coin, whether the coin can move (`TransferStatus.summary`): what the
        /// premium board shows as `transfer`. A venue or coin without rows is `unknown`.
        func state(venue: String, coin: String) -> TransferState {
            TransferStatus.summary(rows.filter { $0.exchange == venue && $0.coin == coin })
        }
    }

    let factory: AdapterFactory
    let now: @Sendable () -> Timestamp

    package init(factory: AdapterFactory, now: @escaping @Sendable () -> Timestamp) {
        self.factory = factory
        self.now = now
    }

    /// The venues to ask: those named (each must publish transfer status), else every venue that
    /// does.
    static func venues(in registry: AdapterRegistry, named: [String]) throws(AggError) -> [AdapterDescriptor] {
        var chosen: [AdapterDescriptor] = []
        for id in named {
            let descriptor = try registry.requireDescriptor(id: id)
            guard descriptor.supports(.transferStatus) else {
                throw .usage("\(descriptor.id) publishes no transfer status; see 'agg exchanges'")
            }
            if !chosen.contains(where: { $0.id == descriptor.id }) { chosen.append(descriptor) }
        }
        return chosen.isEmpty ? registry.descriptors(supporting: .transferStatus) : chosen
    }

    /// The status of `coins` on `venues`. Rows without a time of their own get the time of the
    /// request.
    func run(coins: [String], venues: [AdapterDescriptor]) async -> Report {
        let factory = self.factory
        let asked = now()
        let answers = await concurrentResults(venues) { descriptor throws(AggError) in
            try await factory.adapter(id: descriptor.id).transferStatus(coins: coins)
        }
        var rows: [TransferStatus] = []
        var errors: [AggError] = []
        for (descriptor, answer) in zip(venues, answers) {
            switch answer {
            case .failure(let error):
                errors.append(error)
            case .success(let venueRows):
                for coin in coins {
                    let coinRows = venueRows.filter { $0.coin == coin }
                    if coinRows.isEmpty {
                        errors.append(
                            .notListed(
                                venue: descriptor.id, market: Market(base: coin, quote: descriptor.homeCurrency),
                                code: "", message: "\(coin) is not on its transfer status list"))
                    }
                    rows += coinRows.map { row in
                        var row = row
                        if row.asOf == nil { row.asOf = asked }
                        return row
                    }
                }
            }
        }
        return Report(rows: rows, errors: errors)
    }
}
