import AggCore
import AggJSON
import FoundationEssentials

/// A data venue's published taker fee (`"takerFee"` in its file), for routes, net premiums and
/// `agg status`: `{"rate": "0.002", "source": "https://www.gopax.co.kr/feeinfo", "asOf": "2026-09-22"}`.
/// The rate is a decimal string in the strict grammar, 0 ≤ rate < 1, paid in the quote currency;
/// `source` is the page it was read on and `asOf` the day (`YYYY-MM-DD`).
enum DataVenueFees {
    static func parse(_ cursor: JSONCursor) throws(JSONDecodingError) -> FeeSchedule? {
        guard cursor.isPresent else { return nil }
        try DataVenueDefinition.requireKeys(cursor, allowed: ["rate", "source", "asOf"])
        let text = try cursor["rate"].string()
        let rate: Decimal
        do {
            rate = try DecimalText.parse(text, form: .plain)
        } catch {
            throw cursor["rate"].failure(error.description)
        }
        guard rate >= 0, rate < 1 else {
            throw cursor["rate"].failure("'\(text)' is not a taker rate from 0 up to 1 (0.002 is 0.2 %)")
        }
        let source = try cursor["source"].string()
        guard source.hasPrefix("https://") else { throw cursor["source"].failure("expected an https:// page") }
        let asOf = try cursor["asOf"].string()
        let digits = asOf.utf8.enumerated().allSatisfy { index, byte in
            index == 4 || index == 7 ? byte == UInt8(ascii: "-") : (byte >= 0x30 && byte <= 0x39)
        }
        guard asOf.utf8.count == 10, digits else { throw cursor["asOf"].failure("expected a day, YYYY-MM-DD") }
        return FeeSchedule(defaultTaker: rate, source: source, asOf: asOf)
    }
}
