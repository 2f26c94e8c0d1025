import AggCore
import AggJSON

/// Upbit's public market list with details, read for transfer status.
///
/// Upbit's wallet status (`/v1/status/wallet`) needs an API key, so deposits and withdrawals are
/// `unknown` rather than guessed. The list's warning flags are what Upbit says publicly:
/// `market_event.warning` (the coin is designated for caution), `market_event.caution` (named
/// flags such as `GLOBAL_PRICE_DIFFERENCES` and `DEPOSIT_AMOUNT_SOARING`), and the older
/// `market_warning: "CAUTION"`. One row per coin, however many markets it has.
enum UpbitTransferDecoding {
    /// The note every row carries.
    static let noPublicStatus = "Upbit publishes no wallet status without an API key"

    /// One row per coin of a `/v1/market/all?isDetails=true` answer, in the answer's order.
    ///
    /// Each entry is read on its own: one whose code or flags are not what the API documents is
    /// skipped, and its coin (when its code names one and no other entry gave the coin a row)
    /// gets a row whose note says why, with the path; the other coins keep theirs.
    static func statuses(_ json: JSONCursor) throws(JSONDecodingError) -> [TransferStatus] {
        let answer = try BulkAnswer<(coin: String, flags: [String])>.elements(
            of: json, venue: UpbitAdapter.descriptor.id, nameKey: "market",
            market: { APIRouter.market(fromVenueSymbol: (try? $0["market"].string()) ?? "") }
        ) { entry throws(JSONDecodingError) in
            guard let market = try entry["market"].market(APIRouter.markets.code) else { return nil }
            return (market.base, try flags(entry))
        }
        var order: [String] = []
        var warnings: [String: [String]] = [:]
        for (coin, flags) in answer.values {
            if warnings[coin] == nil {
                order.append(coin)
                warnings[coin] = []
            }
            for flag in flags where warnings[coin]?.contains(flag) == false { warnings[coin]?.append(flag) }
        }
        var rows = order.map { coin in
            let flags = warnings[coin] ?? []
            return TransferStatus(
                exchange: UpbitAdapter.descriptor.id, coin: coin, deposit: .unknown, withdraw: .unknown,
                note: noPublicStatus + (flags.isEmpty ? "" : "; market warnings: " + flags.joined(separator: ", ")))
        }
        for entry in answer.skipped {
            guard let coin = entry.market?.base, warnings[coin] == nil else { continue }
            warnings[coin] = []
            rows.append(
                TransferStatus(
                    exchange: entry.venue, coin: coin, deposit: .unknown, withdraw: .unknown, note: entry.error.summary)
            )
        }
        return rows
    }

    /// The warning flags of one entry: `market_event.warning`, the set flags of
    /// `market_event.caution`, and the older `market_warning` unless `NONE`.
    static func flags(_ entry: JSONCursor) throws(JSONDecodingError) -> [String] {
        var flags: [String] = []
        let event = entry["market_event"]
        if event.isPresent {
            if event["warning"].isPresent, try event["warning"].bool() { flags.append("WARNING") }
            if event["caution"].isPresent {
                for member in try event["caution"].members() {
                    if try member.value.bool() { flags.append(member.key) }
                }
            }
        }
        if let legacy = try entry["market_warning"].optionalString(), legacy != "NONE" { flags.append(legacy) }
        return flags
    }
}
