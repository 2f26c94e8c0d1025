import AggCore
import AggJSON
import FoundationEssentials

/// Bithumb's `/v2/fee/inout/ALL`: withdrawal fees and minimums per coin and network.
///
/// A bare array (no `status` envelope), one entry a coin:
/// `{"name":"비트코인","currency":"BTC","networks":[{"net_name":"Bitcoin","deposit_fee_quantity":"0",
/// "deposit_minimum_quantity":"0.0004","withdraw_fee_quantity":"0.0005","withdraw_minimum_quantity":"0.001",
/// "withdraw_rate":null,"withdraw_fee_min":null,"withdraw_fee_max":null}]}`.
///
/// API notes (apidocs.bithumb.com/reference/입출금-수수료-조회 and its changelog):
/// - Numbers are decimal strings or `null`, in the coin; read in the strict grammar (no exponent,
///   separators or leading zeros).
/// - Two models since autumn 2026: a fixed fee (`withdraw_fee_quantity` only), or a share of the
///   amount (`withdraw_rate`, `"0.001"` is 0.1 %) kept between `withdraw_fee_min` and
///   `withdraw_fee_max` when they are set. A rate wins over a fixed quantity sent beside it.
/// - `net_name` is a display name (`Bitcoin`, `Arbitrum One`), not the `net_type` code of the
///   status endpoint (`BTC`, `ARB_ETH`): `BithumbNetworkNames` joins the two.
/// - One damaged network entry costs only itself: its row keeps its status, has no fee and says
///   why in its note.
enum BithumbFeeDecoding {
    /// What withdrawing one coin on one network costs.
    struct NetworkFee: Equatable {
        var coin: String
        /// The display name (`net_name`).
        var network: String
        var withdrawal: WithdrawalFee?
        var minimum: Decimal?
        /// Why the entry's fee could not be read (the row then says so in its note).
        var problem: String?
    }

    static func fees(_ json: JSONCursor) throws(JSONDecodingError) -> [NetworkFee] {
        var fees: [NetworkFee] = []
        for entry in try json.elements() {
            guard let coin = try? entry["currency"].string().uppercased(), AssetCode.isNormalized(coin),
                let networks = try? entry["networks"].elements()
            else { continue }
            for network in networks {
                guard let name = try? network["net_name"].string() else { continue }
                do {
                    fees.append(try fee(coin: coin, network))
                } catch {
                    fees.append(NetworkFee(coin: coin, network: name, problem: error.description))
                }
            }
        }
        return fees
    }

    /// One network's fee, or an error naming the field that is wrong.
    static func fee(coin: String, _ network: JSONCursor) throws(JSONDecodingError) -> NetworkFee {
        let name = try network["net_name"].string()
        let fixed = try network["withdraw_fee_quantity"].optionalAmount()
        let rate = try network["withdraw_rate"].optionalAmount()
        let minimum = try network["withdraw_fee_min"].optionalAmount()
        let maximum = try network["withdraw_fee_max"].optionalAmount()
        var withdrawal: WithdrawalFee?
        if let rate {
            guard rate < 1 else { throw network["withdraw_rate"].failure("'\(rate)' is not a rate below 1") }
            if let minimum, let maximum, minimum > maximum {
                throw network["withdraw_fee_max"].failure("'\(maximum)' is below withdraw_fee_min '\(minimum)'")
            }
            withdrawal = .percentage(rate: rate, minimum: minimum ?? 0, maximum: maximum)
        } else if let fixed {
            withdrawal = .fixed(fixed)
        }
        return NetworkFee(
            coin: coin, network: name, withdrawal: withdrawal,
            minimum: try network["withdraw_minimum_quantity"].optionalAmount())
    }

    /// `rows` (from the status endpoint) with the fee of their coin and network, where the two
    /// endpoints' names for the network can be joined.
    static func join(_ rows: [TransferStatus], fees: [NetworkFee]) -> [TransferStatus] {
        let feesByCoin = Dictionary(grouping: fees, by: \.coin)
        let rowCounts = Dictionary(grouping: rows, by: \.coin).mapValues(\.count)
        return rows.map { row in
            guard let candidates = feesByCoin[row.coin] else { return row }
            let match: NetworkFee?
            if candidates.count == 1, rowCounts[row.coin] == 1 {
                match = candidates[0]
            } else {
                match = candidates.first { BithumbNetworkNames.code(of: $0.network) == row.network }
            }
            guard let match else { return row }
            var joined = row
            if let problem = match.problem {
                let note = "withdrawal fee unreadable: \(problem)"
                joined.note = row.note.map { "\($0); \(note)" } ?? note
                return joined
            }
            joined.withdrawal = match.withdrawal
            joined.withdrawMinimum = match.minimum
            joined.feeSource = match.withdrawal == nil ? nil : .venue
            return joined
        }
    }
}

/// The status endpoint's `net_type` code of a fee endpoint's `net_name`.
enum BithumbNetworkNames {
    /// Display names whose code is not the name itself, upper-cased without spaces or dashes.
    static let codes: [String: String] = [
        "BITCOIN": "BTC", "ETHEREUM": "ETH", "ERC20": "ETH", "TRON": "TRX", "TRC20": "TRX", "RIPPLE": "XRP",
        "SOLANA": "SOL", "CARDANO": "ADA", "DOGECOIN": "DOGE", "ARBITRUMONE": "ARB_ETH", "OPTIMISM": "OP_ETH",
        "BASE": "BASE_ETH", "POLYGON": "POL", "BNBSMARTCHAIN": "BSC", "BSC": "BSC", "AVALANCHECCHAIN": "AVAX_C",
    ]

    /// `name` upper-cased without spaces and dashes, through `codes`.
    static func code(of name: String) -> String {
        let key = String(name.uppercased().filter { $0 != " " && $0 != "-" && $0 != "(" && $0 != ")" })
        return codes[key] ?? key
    }
}
