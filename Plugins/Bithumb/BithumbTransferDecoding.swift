import AggCore
import AggJSON

/// Bithumb's `/public/assetsstatus/multichain/ALL`: `data` is an array of
/// `{"currency":"USDT","net_type":"TRX","deposit_status":1,"withdrawal_status":0}`, one per coin
/// and network. The statuses are 1 (open) or 0 (closed), as JSON numbers; strings and booleans
/// have been seen in other clients' records and are read the same way. No fee and no time.
enum BithumbTransferDecoding {
    /// Each entry is decoded on its own: one that does not decode makes its coin `unknown`,
    /// with the reason as its note, and costs no other coin (`BulkAnswer.transferRows()`).
    static func statuses(data: JSONCursor) throws(JSONDecodingError) -> [TransferStatus] {
        try BulkAnswer<[TransferStatus]>.elements(of: data, venue: BithumbAdapter.descriptor.id, nameKey: "currency") {
            entry throws(JSONDecodingError) in
            let coin = try entry["currency"].string().uppercased()
            guard AssetCode.isNormalized(coin) else { return nil }
            return [
                TransferStatus(
                    exchange: BithumbAdapter.descriptor.id, coin: coin, network: try entry["net_type"].optionalString(),
                    deposit: try state(entry["deposit_status"]), withdraw: try state(entry["withdrawal_status"]))
            ]
        }.transferRows()
    }

    /// `1` open, `0` closed (as a number, a string or a boolean); anything else is an error.
    static func state(_ field: JSONCursor) throws(JSONDecodingError) -> TransferState {
        switch field.value {
        case .number("1")?, .string("1")?, .bool(true)?: return .open
        case .number("0")?, .string("0")?, .bool(false)?: return .closed
        default: throw field.failure("expected 1 or 0, found \(field.value?.kindDescription ?? "nothing")")
        }
    }
}
