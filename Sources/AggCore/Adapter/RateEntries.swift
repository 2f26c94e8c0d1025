import AggJSON
import FoundationEssentials

/// The rates of an FX source's table, read entry by entry: one bad rate costs that currency
/// only (rule 1 of issue 20, for FX tables).
///
/// A rate must be a JSON number (every FX source agg reads documents numbers, and sends them:
/// a string such as `"1331.5"` is refused, not guessed at), exact, inside `RateRefusal`'s
/// bounds (above zero, 10^-12 to 10^12), under a key that is a currency code. Anything else
/// (a string, `null`, zero, a negative or absurd rate, 41 digits, a key such as `K"W`) is left
/// out of `rates` and listed in `refused`, with the JSON path when the value did not decode;
/// the other currencies answer.
public struct RateEntries: Sendable, Equatable {
    /// The rates that passed, by currency code.
    public var rates: [String: Decimal] = [:]
    /// The rates that did not, in the order read.
    public var refused: [RateRefusal] = []

    public init() {}

    /// Every member of the object `table` (`{"KRW":1331.5,...}`), each read on its own.
    public static func members(of table: JSONCursor) throws(JSONDecodingError) -> RateEntries {
        var entries = RateEntries()
        for member in try table.members() { entries.read(code: member.key, rate: member.value) }
        return entries
    }

    /// Reads the rate of `code` at `rate`: into `rates` when it is one, else into `refused`.
    public mutating func read(code: String, rate: JSONCursor) {
        guard (try? AssetCode.validateCurrency(code)) == code else {
            refused.append(
                RateRefusal(
                    code: String(code.prefix(40)), text: Self.shown(rate),
                    reason: AggError.decoding(venue: "", path: rate.path, detail: "not a currency code").summary))
            return
        }
        read(code: code, decoding: rate) { value throws(JSONDecodingError) in try value.number() }
    }

    /// Reads the rate of `code` that `decode` gives from `value` (a rate that must be computed,
    /// such as a price per 100 units): into `rates` when it is one, else into `refused`.
    public mutating func read(
        code: String, decoding value: JSONCursor, _ decode: (JSONCursor) throws(JSONDecodingError) -> Decimal
    ) {
        let rate: Decimal
        do throws(JSONDecodingError) {
            rate = try decode(value)
        } catch {
            refused.append(
                RateRefusal(
                    code: code, text: Self.shown(value),
                    reason: AggError.decoding(venue: "", path: error.path, detail: error.reason).summary))
            return
        }
        if let refusal = RateRefusal.check(code: code, rate: rate) {
            refused.append(refusal)
        } else {
            rates[code] = rate
        }
    }

    /// The value as the source wrote it (`"1331.5"`, `null`), at most 40 characters of it.
    static func shown(_ value: JSONCursor) -> String {
        guard let json = value.value else { return "(nothing)" }
        let text = json.serialized()
        return text.count <= 40 ? text : "\(text.prefix(20))…(\(text.count) characters)"
    }
}
