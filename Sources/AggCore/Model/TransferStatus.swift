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
    /// What withdrawing on this network costs, in the coin, when the venue publishes it or agg
    /// ships a table for the venue (`feeSource` says which).
    public var withdrawal: WithdrawalFee?
    /// The smallest amount the venue lets leave on this network, in the coin, when known.
    public var withdrawMinimum: Decimal?
    /// Where `withdrawal` comes from; `nil` when there is no fee.
    public var feeSource: WithdrawalFeeSource?
    /// When the status was read: the venue's time if it sends one, else the time of the request.
    public var asOf: Timestamp?
    /// What a reader must know to read the row, such as Upbit's market warnings.
    public var note: String?

    public init(
        exchange: String, coin: String, network: String? = nil, deposit: TransferState, withdraw: TransferState,
        withdrawFee: Decimal? = nil, asOf: Timestamp? = nil, note: String? = nil
    ) {
        self.init(
            exchange: exchange, coin: coin, network: network, deposit: deposit, withdraw: withdraw,
            withdrawal: withdrawFee.map { .fixed($0) }, asOf: asOf, note: note)
    }

    public init(
        exchange: String, coin: String, network: String? = nil, deposit: TransferState, withdraw: TransferState,
        withdrawal: WithdrawalFee?, withdrawMinimum: Decimal? = nil, feeSource: WithdrawalFeeSource? = nil,
        asOf: Timestamp? = nil, note: String? = nil
    ) {
        self.exchange = exchange
        self.coin = coin
        self.network = network
        self.deposit = deposit
        self.withdraw = withdraw
        self.withdrawal = withdrawal
        self.withdrawMinimum = withdrawMinimum
        self.feeSource = withdrawal == nil ? nil : (feeSource ?? .venue)
        self.asOf = asOf
        self.note = note
    }

    /// The fixed withdrawal fee in the coin; `nil` when there is none or the fee is a percentage.
    public var withdrawFee: Decimal? {
        if case .fixed(let fee) = withdrawal { return fee }
        return nil
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

/// Where a withdrawal fee comes from.
public enum WithdrawalFeeSource: Sendable, Equatable {
    /// The venue's own public answer, read with the status.
    case venue
    /// A table shipped with agg (the venue publishes none without a key): its page and the day it
    /// was read there (`2026-11-20`), so the output can say the fee is tabled and how old.
    case table(source: String, asOf: String)
    /// The user's config file.
    case configuration
}
