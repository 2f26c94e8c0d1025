import AggJSON
import FoundationEssentials

/// A venue's withdrawal fees as agg ships them, for a venue that publishes none without a key:
/// fixed fees in the coin by coin and network, with the venue's own page they were read on and
/// the day they were read there. `agg status` and `agg arb` use a tabled fee only where the
/// venue's own answer has none, and the config file's `withdrawalFees` win over it.
///
/// The data is JSON, read by `parse(_:)` and nothing else:
///
///     {"source": "https://venue.example/fees", "asOf": "2026-12-03",
///      "fees": {"BTC": "0.0005", "USDT/TRC20": "1"}}
///
/// A key is `COIN` (every network of the coin without a `COIN/NETWORK` entry) or `COIN/NETWORK`,
/// the network as the venue names it in its transfer status; a fee is a decimal string in the
/// strict grammar (no exponent, separators or leading zeros), zero or more.
public struct WithdrawalFeeTable: Sendable, Equatable {
    /// The venue's page the fees were read on (`https://…`).
    public var source: String
    /// The day they were read there, `YYYY-MM-DD`.
    public var asOf: String
    /// Fixed fees in the coin by `COIN` or `COIN/NETWORK`.
    public var fees: [String: Decimal]

    /// A table from already-checked parts; `parse(_:)` is how shipped data is read.
    public init(source: String, asOf: String, fees: [String: Decimal]) {
        self.source = source
        self.asOf = asOf
        self.fees = fees
    }

    /// The fee of `coin` on `network`: the `COIN/NETWORK` entry, else the `COIN` entry.
    public func fee(coin: String, network: String?) -> Decimal? {
        if let network, let fee = fees["\(coin)/\(network)"] { return fee }
        return fees[coin]
    }

    /// The rows of `coin` on `exchange`, a venue that publishes no transfer status: one per
    /// network the table names for the coin (`COIN` alone: the coin's own chain, no network),
    /// deposits and withdrawals `unknown`, no fee yet (the caller prices them, as any row); none
    /// when the table has no entry for the coin.
    public func rows(coin: String, exchange: String) -> [TransferStatus] {
        fees.keys.sorted().compactMap { key in
            let parts = key.split(separator: "/", maxSplits: 1)
            guard String(parts[0]) == coin else { return nil }
            return TransferStatus(
                exchange: exchange, coin: coin, network: parts.count == 2 ? String(parts[1]) : nil, deposit: .unknown,
                withdraw: .unknown, withdrawal: nil)
        }
    }

    /// Whole days from the start of `asOf` (UTC) to `time`: how old the table was then; `nil`
    /// when `asOf` is not a day (never, for a parsed table).
    public func age(at time: Timestamp) -> Int? {
        Self.ageInDays(asOf: asOf, at: time)
    }

    /// Whole days from the start of the day `asOf` (`YYYY-MM-DD`, UTC) to `time`, never below 0.
    public static func ageInDays(asOf: String, at time: Timestamp) -> Int? {
        guard let day = Self.dayNumber(asOf) else { return nil }
        let elapsed = time.millisecondsSince1970 - day * 86_400_000
        return elapsed < 0 ? 0 : Int(elapsed / 86_400_000)
    }

    /// The table in `bytes`, checked strictly: exactly the keys `source` (an `https://` page),
    /// `asOf` (a real day, `YYYY-MM-DD`) and `fees` (at least one entry).
    /// A table that does not read is a `JSONDecodingError`: its JSON path and the problem.
    public static func parse(_ bytes: [UInt8]) throws(JSONDecodingError) -> WithdrawalFeeTable {
        try JSONCursor.decodeStrictly(bytes, decode)
    }

    private static func decode(_ root: JSONCursor) throws(JSONDecodingError) -> WithdrawalFeeTable {
        let allowed = ["source", "asOf", "fees"]
        for member in try root.members() where !allowed.contains(member.key) {
            throw member.value.failure("unknown key '\(member.key.prefix(40))'; expected one of: source, asOf, fees")
        }
        let source = try root["source"].string()
        guard source.hasPrefix("https://"), source.count > 8, !source.contains(where: \.isWhitespace) else {
            throw root["source"].failure("expected the venue's https:// page")
        }
        let asOf = try root["asOf"].string()
        guard dayNumber(asOf) != nil else {
            throw root["asOf"].failure("'\(asOf.prefix(40))' is not a day, YYYY-MM-DD")
        }
        var fees: [String: Decimal] = [:]
        for entry in try root["fees"].members() {
            let parts = entry.key.split(separator: "/", omittingEmptySubsequences: false)
            guard (1...2).contains(parts.count), AssetCode.isNormalized(String(parts[0])),
                parts.count == 1 || (!parts[1].isEmpty && parts[1].allSatisfy { !$0.isWhitespace })
            else {
                throw entry.value.failure("'\(entry.key.prefix(40))' is not COIN or COIN/NETWORK (\"USDT/TRC20\")")
            }
            let text = try entry.value.string()
            let fee: Decimal
            do {
                fee = try DecimalText.parse(text, form: .plain)
            } catch {
                throw entry.value.failure(error.description)
            }
            guard fee >= 0 else { throw entry.value.failure("'\(text)' is negative") }
            fees[entry.key] = fee
        }
        guard !fees.isEmpty else { throw root["fees"].failure("expected at least one fee") }
        return WithdrawalFeeTable(source: source, asOf: asOf, fees: fees)
    }

    /// Days since 1970-01-01 of a real calendar day written `YYYY-MM-DD`; `nil` for anything else.
    static func dayNumber(_ text: String) -> Int64? {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return nil }
        func number(_ range: Range<Int>) -> Int64? {
            var value: Int64 = 0
            for byte in bytes[range] {
                guard byte >= 0x30, byte <= 0x39 else { return nil }
                value = value * 10 + Int64(byte - 0x30)
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10), year >= 1970,
            (1...12).contains(month)
        else { return nil }
        let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
        let lengths: [Int64] = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        guard (1...lengths[Int(month - 1)]).contains(day) else { return nil }
        // Days from civil (H. Hinnant's algorithm), exact for the proleptic Gregorian calendar.
        let y = month <= 2 ? year - 1 : year
        let era = y / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
