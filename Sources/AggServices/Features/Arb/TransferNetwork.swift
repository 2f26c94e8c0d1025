import AggCore
import FoundationEssentials

/// Network names as one key across venues: venues name the same chain differently (Bithumb's
/// `ERC20`, Korbit's `ETH`), and a venue that names none means the coin's own chain.
package enum TransferNetwork {
    /// Token standards some venues write where others write the chain.
    static let aliases: [String: String] = [
        "ERC20": "ETH", "ETHEREUM": "ETH", "TRC20": "TRX", "TRON": "TRX", "BEP20": "BSC", "BSC(BEP20)": "BSC",
        "BITCOIN": "BTC", "SOLANA": "SOL", "SPL": "SOL", "RIPPLE": "XRP", "POLYGON": "MATIC",
    ]

    /// The key of `network` for `coin`: upper-cased, spaces and dashes dropped, an alias read
    /// as its chain; a row without a network is the coin's own chain (`BTC` for Bitcoin).
    package static func key(_ network: String?, coin: String) -> String {
        guard let network else { return coin }
        let squeezed = String(network.uppercased().filter { $0 != " " && $0 != "-" && $0 != "_" })
        guard !squeezed.isEmpty else { return coin }
        return aliases[squeezed] ?? squeezed
    }
}

/// One network the coin could travel on: the source venue's withdrawal side and the
/// destination's deposit side. A side a venue does not publish is `unknown`.
package struct TransferCandidate: Sendable, Equatable {
    /// The matched key (`TransferNetwork.key`).
    package var network: String
    /// Whether the source lets the coin leave on it.
    package var withdraw: TransferState
    /// Whether the destination takes it in on it.
    package var deposit: TransferState
    /// The source's withdrawal fee on it, `nil` when unknown.
    package var fee: WithdrawalFee?
    /// Where the fee comes from.
    package var feeSource: WithdrawalFeeSource?
    /// The source row's time.
    package var asOf: Timestamp?

    /// Whether the route may use it: neither side closed.
    var usable: Bool { withdraw != .closed && deposit != .closed }

    /// The networks `coin` could travel on from the `source` rows (the buying venue's) to the
    /// `destination` rows (the selling venue's). When both venues publish rows, only the
    /// networks they share; when one publishes none, the other's networks with its side
    /// unknown; when neither does, the coin's own chain, unknown both ways.
    package static func candidates(coin: String, source: [TransferStatus], destination: [TransferStatus])
        -> [TransferCandidate]
    {
        func row(_ status: TransferStatus?, other: TransferStatus?) -> TransferCandidate {
            let named = status ?? other
            return TransferCandidate(
                network: TransferNetwork.key(named?.network, coin: coin), withdraw: status?.withdraw ?? .unknown,
                deposit: other?.deposit ?? .unknown, fee: status?.withdrawal, feeSource: status?.feeSource,
                asOf: status?.asOf)
        }
        switch (source.isEmpty, destination.isEmpty) {
        case (true, true):
            return [TransferCandidate(network: coin, withdraw: .unknown, deposit: .unknown)]
        case (false, true):
            return source.map { row($0, other: nil) }
        case (true, false):
            return destination.map { destination in
                TransferCandidate(
                    network: TransferNetwork.key(destination.network, coin: coin), withdraw: .unknown,
                    deposit: destination.deposit)
            }
        case (false, false):
            return source.flatMap { status in
                let key = TransferNetwork.key(status.network, coin: coin)
                return destination.filter { TransferNetwork.key($0.network, coin: coin) == key }.map {
                    row(status, other: $0)
                }
            }
        }
    }
}
