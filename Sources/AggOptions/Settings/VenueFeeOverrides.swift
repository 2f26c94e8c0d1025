import AggCore
import AggJSON
import FoundationEssentials

/// A user's own fees on one venue, from the config file's `venueSettings.<id>`: the taker rate of
/// their tier (`"takerFee": "0.0005"`) and fixed withdrawal fees by coin and network
/// (`"withdrawalFees": {"USDT/TRX": "1", "BTC": "0.0004"}`). They win over the venue's published
/// schedule and over agg's shipped tables.
package struct VenueFeeOverrides: Sendable, Equatable {
    /// The taker rate as a fraction (0.0005 is 0.05 %), 0 ≤ rate < 1.
    package var takerFee: Decimal?
    /// Fixed withdrawal fees in the coin, by `COIN/NETWORK` (one network) or `COIN` (every network
    /// of the coin that has no `COIN/NETWORK` entry).
    package var withdrawalFees: [String: Decimal]

    package init(takerFee: Decimal? = nil, withdrawalFees: [String: Decimal] = [:]) {
        self.takerFee = takerFee
        self.withdrawalFees = withdrawalFees
    }

    /// The config file keys under `venueSettings.<id>` that are read here, not by the adapter.
    package static let keys: Set<String> = ["takerFee", "withdrawalFees"]

    /// The fixed withdrawal fee the user set for `coin` on `network`: the `COIN/NETWORK` entry,
    /// else the `COIN` entry.
    package func withdrawalFee(coin: String, network: String?) -> Decimal? {
        if let network, let fee = withdrawalFees["\(coin)/\(network)"] { return fee }
        return withdrawalFees[coin]
    }

    /// Reads `member` (one of `keys`) into these overrides, strictly: a decimal written as a
    /// string (no exponent, separators or leading zeros); a taker rate from 0 up to but not
    /// including 1; a withdrawal fee zero or more, under a key `COIN` or `COIN/NETWORK`.
    mutating func read(key: String, value: JSONCursor) throws(JSONDecodingError) {
        switch key {
        case "takerFee":
            let rate = try Self.decimal(value)
            guard rate >= 0, rate < 1 else {
                throw value.failure("'\(try value.string())' is not a taker rate from 0 up to 1 (0.0005 is 0.05 %)")
            }
            takerFee = rate
        default:
            for entry in try value.members() {
                let parts = entry.key.split(separator: "/", omittingEmptySubsequences: false)
                guard (1...2).contains(parts.count), AssetCode.isNormalized(String(parts[0])),
                    parts.count == 1 || (!parts[1].isEmpty && parts[1].allSatisfy { !$0.isWhitespace })
                else {
                    throw entry.value.failure("'\(entry.key)' is not COIN or COIN/NETWORK (\"USDT/TRX\")")
                }
                let fee = try Self.decimal(entry.value)
                guard fee >= 0 else { throw entry.value.failure("'\(try entry.value.string())' is negative") }
                withdrawalFees[entry.key] = fee
            }
        }
    }

    /// A decimal written as a JSON string in the strict grammar.
    private static func decimal(_ value: JSONCursor) throws(JSONDecodingError) -> Decimal {
        let text = try value.string()
        do {
            return try DecimalText.parse(text, form: .plain)
        } catch {
            throw value.failure(error.description)
        }
    }
}
