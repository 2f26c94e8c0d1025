import AggCore
import AggJSON
import FoundationEssentials

/// A data venue's transfer list (`"transferStatus"` in its file): one request for every coin,
/// each item a coin (or a coin on one network) with its withdrawal fee and minimum, and, when the
/// venue publishes them, whether deposits and withdrawals are open.
///
/// ```json
/// "transferStatus": {"path": "/assets", "items": "$", "coin": "$.id",
///   "withdrawalFee": "$.withdrawalFee", "withdrawMinimum": "$.withdrawalAmountMin",
///   "note": "GOPAX publishes no wallet status without an API key"}
/// ```
///
/// `deposit` and `withdraw` paths, when given, hold a value that `open` lists (`"open":
/// ["normal", "1", true]`) for open and anything else for closed; without them both directions
/// are `unknown`. Fees are fixed amounts in the coin, read in the strict decimal grammar.
public struct DataVenueTransfers: Sendable {
    public var path: String
    public var items: DataPath
    public var coin: DataPath
    public var network: DataPath?
    public var deposit: DataPath?
    public var withdraw: DataPath?
    /// The texts of values that mean open (`"normal"`, `"1"`, `"true"`).
    public var open: Set<String>
    public var withdrawalFee: DataPath?
    public var withdrawMinimum: DataPath?
    /// What a reader must know about every row (that the venue publishes no status).
    public var note: String?

    static let keys = [
        "path", "items", "coin", "network", "deposit", "withdraw", "open", "withdrawalFee", "withdrawMinimum", "note",
    ]

    /// The section at `cursor`, or `nil` when the file has none.
    static func parse(_ cursor: JSONCursor) throws(JSONDecodingError) -> DataVenueTransfers? {
        guard cursor.isPresent else { return nil }
        try DataVenueDefinition.requireKeys(cursor, allowed: keys)
        guard let coin = try DataVenueDefinition.path(cursor["coin"]) else {
            throw cursor["coin"].failure("expected a JSON path")
        }
        let path = try cursor["path"].string()
        guard path.hasPrefix("/"), !path.contains("{") else {
            throw cursor["path"].failure("expected a path under the base URL, without placeholders")
        }
        var open: Set<String> = []
        if cursor["open"].isPresent {
            for element in try cursor["open"].elements() {
                switch element.value {
                case .string(let text)?, .number(let text)?: open.insert(text)
                case .bool(let flag)?: open.insert(flag ? "true" : "false")
                default: throw element.failure("expected a string, a number or a boolean")
                }
            }
        }
        let deposit = try DataVenueDefinition.path(cursor["deposit"])
        let withdraw = try DataVenueDefinition.path(cursor["withdraw"])
        if (deposit != nil || withdraw != nil) && open.isEmpty {
            throw cursor["open"].failure("name the values that mean open when deposit or withdraw is given")
        }
        return DataVenueTransfers(
            path: path, items: try DataVenueDefinition.path(cursor["items"]) ?? .root, coin: coin,
            network: try DataVenueDefinition.path(cursor["network"]), deposit: deposit, withdraw: withdraw, open: open,
            withdrawalFee: try DataVenueDefinition.path(cursor["withdrawalFee"]),
            withdrawMinimum: try DataVenueDefinition.path(cursor["withdrawMinimum"]),
            note: try cursor["note"].optionalString())
    }

    /// The rows of one answer, item by item: an item that does not decode makes its coin
    /// `unknown` with the reason, and costs no other coin.
    func rows(_ json: JSONCursor, venue: String) throws(JSONDecodingError) -> [TransferStatus] {
        let coinPath = coin
        let entries = Array(try items.read(json).elements().enumerated())
        return BulkAnswer<[TransferStatus]>.decoding(
            entries, venue: venue, name: { (try? coinPath.read($0.element).text()) ?? "[\($0.offset)]" },
            market: { _ in nil }
        ) { entry throws(JSONDecodingError) in
            let item = entry.element
            let coin = try coin.read(item).string().uppercased()
            guard AssetCode.isNormalized(coin) else { return nil }
            let fee = try withdrawalFee.map { path throws(JSONDecodingError) in try path.read(item).optionalAmount() }
            return [
                TransferStatus(
                    exchange: venue, coin: coin,
                    network: try network.map { path throws(JSONDecodingError) in try path.read(item).string() },
                    deposit: try state(deposit, item), withdraw: try state(withdraw, item),
                    withdrawal: (fee ?? nil).map { .fixed($0) },
                    withdrawMinimum: try withdrawMinimum.map { path throws(JSONDecodingError) in
                        try path.read(item).optionalAmount()
                    } ?? nil,
                    note: note)
            ]
        }.transferRows()
    }

    private func state(_ path: DataPath?, _ item: JSONCursor) throws(JSONDecodingError) -> TransferState {
        guard let path else { return .unknown }
        let field = path.read(item)
        switch field.value {
        case .string(let text)?, .number(let text)?: return open.contains(text) ? .open : .closed
        case .bool(let flag)?: return open.contains(flag ? "true" : "false") ? .open : .closed
        default: throw field.failure("expected a status, found \(field.value?.kindDescription ?? "nothing")")
        }
    }
}
