import AggCore
import AggOptions

/// Transfer status: each venue that publishes it is asked once for its whole list, all at the
/// same time, and the rows of the coins asked are kept.
package struct TransferStatusService: Sendable {
    /// What came back: rows in venue, coin, network order, and one error per venue that failed
    /// or coin a venue does not list.
    package struct Report: Sendable, Equatable {
        package var rows: [TransferStatus]
        package var errors: [AggError]
        /// Each venue's taker fee on its home-currency markets, with its source, in venue order
        /// (empty when the service was made without a fee lookup).
        package var takerFees: [VenueTakerFee]

        package init(rows: [TransferStatus], errors: [AggError], takerFees: [VenueTakerFee] = []) {
            self.rows = rows
            self.errors = errors
            self.takerFees = takerFees
        }

        /// Per venue and coin, whether the coin can move (`TransferStatus.summary`): what the
        /// premium board shows as `transfer`. A venue or coin without rows is `unknown`.
        func state(venue: String, coin: String) -> TransferState {
            TransferStatus.summary(rows.filter { $0.exchange == venue && $0.coin == coin })
        }
    }

    /// A venue's taker fee on the markets quoted in its home currency.
    package struct VenueTakerFee: Sendable, Equatable {
        package var exchange: String
        package var quoteCurrency: String
        package var choice: TakerFeeLookup.Choice
    }

    let factory: AdapterFactory
    let now: @Sendable () -> Timestamp
    /// The taker fees to show beside the rows; `nil` shows none.
    var takerFees: TakerFeeLookup?
    /// The config file's withdrawal fees by venue id, put over the venues' own.
    var withdrawalOverrides: [String: VenueFeeOverrides]

    package init(
        factory: AdapterFactory, now: @escaping @Sendable () -> Timestamp, takerFees: TakerFeeLookup? = nil,
        withdrawalOverrides: [String: VenueFeeOverrides] = [:]
    ) {
        self.factory = factory
        self.now = now
        self.takerFees = takerFees
        self.withdrawalOverrides = withdrawalOverrides
    }

    /// The service `agg status` and `/v1/status` run: with the taker fees and the config
    /// file's withdrawal fees of `factory`'s context.
    package static func withFees(factory: AdapterFactory) -> TransferStatusService {
        TransferStatusService(
            factory: factory, now: factory.context.now, takerFees: factory.context.takerFeeLookup,
            withdrawalOverrides: factory.context.withdrawalFeeOverrides)
    }

    /// The venues to ask: those named (each must publish transfer status or have a shipped
    /// withdrawal-fee table), else every venue that does.
    static func venues(in registry: AdapterRegistry, named: [String]) throws(AggError) -> [AdapterDescriptor] {
        var chosen: [AdapterDescriptor] = []
        for id in named {
            let descriptor = try registry.requireDescriptor(id: id)
            guard Self.hasRows(descriptor) else {
                throw .usage("\(descriptor.id) publishes no transfer status; see 'agg exchanges'")
            }
            if !chosen.contains(where: { $0.id == descriptor.id }) { chosen.append(descriptor) }
        }
        return chosen.isEmpty ? registry.descriptors.filter(Self.hasRows) : chosen
    }

    /// Whether `agg status` has rows for the venue: it publishes transfer status, or agg ships a
    /// table of its withdrawal fees.
    static func hasRows(_ descriptor: AdapterDescriptor) -> Bool {
        descriptor.supports(.transferStatus) || descriptor.withdrawalFees != nil
    }

    /// What a venue without transfer status answers: its table's networks for `coins`, both
    /// sides unknown and said so.
    static func tabledRows(_ descriptor: AdapterDescriptor, coins: [String]) -> [TransferStatus] {
        coins.flatMap { coin in
            (descriptor.withdrawalFees?.rows(coin: coin, exchange: descriptor.id) ?? []).map { row in
                var row = row
                row.note = "\(descriptor.displayName) publishes no transfer status; the fee is agg's table"
                return row
            }
        }
    }

    /// The status of `coins` on `venues`. Rows without a time of their own get the time of the
    /// request.
    func run(coins: [String], venues: [AdapterDescriptor]) async -> Report {
        let factory = self.factory
        let asked = now()
        let answers = await concurrentResults(venues) { descriptor throws(AggError) in
            guard descriptor.supports(.transferStatus) else { return Self.tabledRows(descriptor, coins: coins) }
            return try await factory.adapter(id: descriptor.id).transferStatus(coins: coins)
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
                                code: "",
                                message: descriptor.supports(.transferStatus)
                                    ? "\(coin) is not on its transfer status list"
                                    : "\(coin) is not in agg's withdrawal-fee table for it"))
                    }
                    rows += coinRows.map { row in
                        var row = row
                        if row.asOf == nil { row.asOf = asked }
                        return Self.priced(
                            row, table: descriptor.withdrawalFees, overrides: withdrawalOverrides[descriptor.id])
                    }
                }
            }
        }
        let fees = venues.compactMap { descriptor in
            takerFees?.taker(venue: descriptor.id, quotedIn: descriptor.homeCurrency).map {
                VenueTakerFee(exchange: descriptor.id, quoteCurrency: descriptor.homeCurrency, choice: $0)
            }
        }
        return Report(rows: rows, errors: errors, takerFees: fees)
    }

    /// `row` with its withdrawal fee from where agg trusts it most: the user's config file, else
    /// the venue's own answer, else agg's shipped table for the venue (`feeSource` `.table`).
    static func priced(_ row: TransferStatus, table: WithdrawalFeeTable?, overrides: VenueFeeOverrides?)
        -> TransferStatus
    {
        overridden(tabled(row, by: table), by: overrides)
    }

    /// `row` with the table's fixed fee for its coin and network when the venue's answer has no
    /// fee and the table has one.
    static func tabled(_ row: TransferStatus, by table: WithdrawalFeeTable?) -> TransferStatus {
        guard row.withdrawal == nil, let table, let fee = table.fee(coin: row.coin, network: row.network) else {
            return row
        }
        var row = row
        row.withdrawal = .fixed(fee)
        row.feeSource = .table(source: table.source, asOf: table.asOf)
        return row
    }

    /// `row` with the user's fixed withdrawal fee for its coin and network, when they set one.
    static func overridden(_ row: TransferStatus, by overrides: VenueFeeOverrides?) -> TransferStatus {
        guard let fee = overrides?.withdrawalFee(coin: row.coin, network: row.network) else { return row }
        var row = row
        row.withdrawal = .fixed(fee)
        row.feeSource = .configuration
        return row
    }
}
