import AggCore
import AggJSON

/// Upbit's public market list with details, read for transfer status.
///
/// Upbit's wallet status (`/v1/status/wallet`) needs an API key, so deposits and withdrawals are
/// `unknown` rather than guessed. The list's warning flags are what Upbit says publicly:
/// `market_event.warning` (the coin is designated for caution), `market_event.caution` (named
/// flags such as `GLOBAL_PRICE_DIFFERENCES` and `DEPOSIT_AMOUNT_SOARING`), and the older
/// `market_warning: "CAUTION"`. One row per coin, however many markets it has.
public enum UpbitTransferDecoding {
    /// The note every row carries.
    public static let noPublicStatus = "Upbit publishes no wallet status without an API key"

    public static func statuses(_ json: JSONCursor) throws(JSONDecodingError) -> [TransferStatus] {
        var order: [String] = []
        var warnings: [String: [String]] = [:]
        for entry in try json.elements() {
            let code = try entry["market"].string()
            guard let market = APIRouter.market(fromVenueSymbol: code) else { continue }
            if warnings[market.base] == nil {
                order.append(market.base)
                warnings[market.base] = []
            }
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
            for flag in flags where warnings[market.base]?.contains(flag) == false {
                warnings[market.base]?.append(flag)
            }
        }
        return order.map { coin in
            let flags = warnings[coin] ?? []
            return TransferStatus(
                exchange: UpbitAdapter.descriptor.id, coin: coin, deposit: .unknown, withdraw: .unknown,
                note: noPublicStatus + (flags.isEmpty ? "" : "; market warnings: " + flags.joined(separator: ", ")))
        }
    }
}
