import FoundationEssentials

/// Whether one direction of transfers (deposits or withdrawals) is possible.
public enum TransferState: String, Sendable, Equatable, CaseIterable {
    case open, closed
    /// The venue does not say publicly (Upbit), or says nothing that can be read as open or closed.
    case unknown
}

/// Whether a coin can be deposited to and withdrawn from a venue, on one network.
///
/// An arbitrage between two venues is real only if the coin can leave one and enter the other.
public struct TransferStatus: Sendable, Equatable {
    /// The venue id.
    public var exchange: String
    /// The coin (`BTC`).
    public var coin: String
    /// The network (`ERC20`, `TRX`), when the venue names one.
    public var network: String?
    public var deposit: TransferState
    public var withdraw: TransferState
    /// The withdrawal fee in the coin, when the venue publishes it.
    public var withdrawFee: Decimal?
    /// When the status was read: the venue's time if it sends one, else the time of the request.
    public var asOf: Timestamp?
    /// What a reader must know to read the row, such as Upbit's market warnings.
    public var note: String?

    public init(
        exchange: String, coin: String, network: String? = nil, deposit: TransferState, withdraw: TransferState,
        withdrawFee: Decimal? = nil, asOf: Timestamp? = nil, note: String? = nil
    ) {
        self.exchange = exchange
        self.coin = coin
        self.network = network
        self.deposit = deposit
        self.withdraw = withdraw
        self.withdrawFee = withdrawFee
        self.asOf = asOf
        self.note = note
    }

    /// One venue's word on whether `coin` can move, from its rows (one per network):
    /// `closed` when deposits are closed on every network or withdrawals are closed on every
    /// network; `open` when some network takes deposits and some network allows withdrawals;
    /// otherwise (no rows, or only unknowns) `unknown`.
    public static func summary(_ rows: [TransferStatus]) -> TransferState {
        guard !rows.isEmpty else { return .unknown }
        if rows.allSatisfy({ $0.deposit == .closed }) || rows.allSatisfy({ $0.withdraw == .closed }) {
            return .closed
        }
        if rows.contains(where: { $0.deposit == .open }), rows.contains(where: { $0.withdraw == .open }) {
            return .open
        }
        return .unknown
    }
}
