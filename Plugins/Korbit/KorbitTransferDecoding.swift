import AggCore
import AggJSON

/// Korbit's `/v2/currencies`, read for transfer status.
///
/// `data` is an array, one entry a currency:
/// `{"name":"usdt","fullName":"Tether","withdrawalMaxAmountPerRequest":"100000","defaultNetwork":"ETH",
/// "networkList":[{"name":"ETH","fullName":"Ethereum","withdrawalStatus":"launched",
/// "depositStatus":"launched","confirmationCount":"12","withdrawalTxFee":"5","withdrawalMinAmount":"10",
/// "withdrawalPrecision":6,"hasSecondaryAddr":false}, ...]}`.
///
/// API notes (Korbit's v2 documentation and other clients' records):
/// - One row per network: the statuses live in `networkList[]`, as `launched` (open) or `stopped`
///   (closed). Any other word (Korbit's older API also had `disabled`) is read as closed when it
///   is `disabled` and as unknown otherwise, and kept in the row's note.
/// - The currency also carries `depositStatus`, `withdrawalStatus` and `withdrawalTxFee` at its own
///   level, marked "to be removed" in the documentation: they are read only for an entry without
///   networks, as one row with no network.
/// - Fiat (`krw`) has no `networkList` and no statuses: it is left out.
/// - Codes are lower case (`btc`) and upper-cased here; network names are upper case (`ETH`).
/// - Numbers are strings (`withdrawalTxFee`, `withdrawalMinAmount`, `confirmationCount`) except
///   `withdrawalPrecision`. The fee is fixed per network (Korbit publishes no other model);
///   `withdrawalMinAmount` is the smallest withdrawal. Both are read in the strict grammar.
/// - No time in the answer.
enum KorbitTransferDecoding {
    static func statuses(_ data: JSONCursor) throws(JSONDecodingError) -> [TransferStatus] {
        // Each currency on its own: a damaged one makes its coin unknown and costs no other coin.
        return try BulkAnswer<[TransferStatus]>.elements(of: data, venue: KorbitAdapter.descriptor.id, nameKey: "name")
        {
            entry throws(JSONDecodingError) in
            let coin = try entry["name"].string().uppercased()
            guard AssetCode.isNormalized(coin) else { return nil }
            var rows: [TransferStatus] = []
            let networks = entry["networkList"].isPresent ? try entry["networkList"].elements() : []
            if networks.isEmpty {
                guard entry["depositStatus"].isPresent || entry["withdrawalStatus"].isPresent else { return nil }
                rows.append(try row(coin: coin, network: nil, fields: entry))
            }
            for network in networks {
                rows.append(try row(coin: coin, network: try network["name"].string(), fields: network))
            }
            return rows
        }.transferRows()
    }

    /// The row of one network (or of a currency without networks) from its status fields.
    static func row(coin: String, network: String?, fields: JSONCursor) throws(JSONDecodingError) -> TransferStatus {
        let deposit = try fields["depositStatus"].optionalString()
        let withdrawal = try fields["withdrawalStatus"].optionalString()
        let unusual = [("deposit", deposit), ("withdrawal", withdrawal)].compactMap { name, word in
            word.flatMap { ["launched", "stopped"].contains($0) ? nil : "\(name): \($0)" }
        }
        return TransferStatus(
            exchange: KorbitAdapter.descriptor.id, coin: coin, network: network, deposit: state(deposit),
            withdraw: state(withdrawal), withdrawal: try fields["withdrawalTxFee"].optionalAmount().map { .fixed($0) },
            withdrawMinimum: try fields["withdrawalMinAmount"].optionalAmount(),
            note: unusual.isEmpty ? nil : unusual.joined(separator: "; "))
    }

    /// `launched` open; `stopped` or `disabled` closed; anything else, or nothing, unknown.
    static func state(_ word: String?) -> TransferState {
        switch word {
        case "launched": .open
        case "stopped", "disabled": .closed
        default: .unknown
        }
    }
}
