import AggCore
import AggJSON

/// Coinone's `/public/v2/currencies`, read for transfer status.
///
/// The answer is `{"result":"success","error_code":"0","server_time":ms,"currencies":[...]}`,
/// one entry a coin and no networks:
/// `{"name":"Bitcoin","symbol":"BTC","deposit_status":"normal","withdraw_status":"normal",
/// "deposit_confirm_count":2,"max_precision":8,"deposit_fee":"0.0","withdrawal_min_amount":"0.0001",
/// "withdrawal_fee":"0.0008"}`.
///
/// API notes (Coinone's documentation and other clients' records):
/// - The statuses are words, not flags: `"normal"` is the only one documented, and ccxt reads
///   every other word as closed. agg does the same, and keeps the word in the row's note so that
///   a reader sees what Coinone said (`deposit: suspended`).
/// - The directions are spelt differently: `deposit_status` but `withdraw_status`, and the fee is
///   `withdrawal_fee` (a decimal string, in the coin).
/// - `deposit_confirm_count` and `max_precision` come as numbers in the documentation and as
///   strings in recorded answers; agg reads neither.
/// - Codes are upper case here (`BTC`), unlike the lower-case tickers; they are upper-cased anyway.
/// - The answer's `server_time` (epoch ms) is the rows' time.
enum CoinoneTransferDecoding {
    /// The one status word that means open.
    static let openWord = "normal"

    static func statuses(_ json: JSONCursor) throws(JSONDecodingError) -> [TransferStatus] {
        let asOf = try json["server_time"].optionalInt64().map(Timestamp.init(millisecondsSince1970:))
        // Each entry on its own: a damaged one makes its coin unknown and costs no other coin.
        return try BulkAnswer<[TransferStatus]>.elements(
            of: json["currencies"], venue: CoinoneAdapter.descriptor.id, nameKey: "symbol"
        ) { entry throws(JSONDecodingError) in
            let coin = try entry["symbol"].string().uppercased()
            guard AssetCode.isNormalized(coin) else { return nil }
            let deposit = try entry["deposit_status"].string()
            let withdraw = try entry["withdraw_status"].string()
            let notes = [("deposit", deposit), ("withdraw", withdraw)].filter { $0.1 != openWord }
                .map { "\($0.0): \($0.1)" }
            return [
                TransferStatus(
                    exchange: CoinoneAdapter.descriptor.id, coin: coin, deposit: state(deposit),
                    withdraw: state(withdraw),
                    withdrawal: try entry["withdrawal_fee"].optionalAmount().map { .fixed($0) },
                    withdrawMinimum: try entry["withdrawal_min_amount"].optionalAmount(), asOf: asOf,
                    note: notes.isEmpty ? nil : notes.joined(separator: "; "))
            ]
        }.transferRows()
    }

    /// `normal` open, any other word closed.
    static func state(_ word: String) -> TransferState {
        word == openWord ? .open : .closed
    }
}
