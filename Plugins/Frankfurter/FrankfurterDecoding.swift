import AggCore
import AggJSON
import FoundationEssentials

/// Decoding of Frankfurter's `/v1/latest` answers into `RateTable`s.
public enum FrankfurterDecoding {
    /// Frankfurter's answers: bare JSON; an error is `{"message":"not found"}` (HTTP 404 for a
    /// base it does not know).
    public static let envelope = ResponseEnvelope(error: venueError)

    /// The venue error in an answer, if any. Frankfurter sends no code, so the HTTP status stands
    /// in; the message is kept verbatim. Successful answers never carry a top-level `message`.
    public static func venueError(in json: JSONCursor, response: HTTPResponse) -> VenueErrorFields? {
        guard case .string(let message)? = json["message"].value else { return nil }
        return VenueErrorFields(code: String(response.status), message: message)
    }

    /// The rate table of a successful answer (`{"amount":1.0,"base":"USD","date":"2024-08-07",
    /// "rates":{"KRW":1373.59,...}}`).
    ///
    /// Rates keep the exact decimal text of the JSON numbers (Frankfurter rounds them to 2 to
    /// 6 decimals by size, and writes the smallest with an exponent, `6.7e-05`). The base is
    /// not among the rates: it is added as 1. A rate that cannot be an exchange rate (zero,
    /// negative, beyond `RateRefusal`'s plausible range) is left out and listed in `refused`;
    /// keys that are not three capital letters are skipped. `asOf` and `nextUpdate` come from
    /// the date (see `ECBCalendar`).
    ///
    /// - Parameter base: the base currency asked for; an answer for another base is refused.
    public static func rateTable(_ json: JSONCursor, base: String) throws(JSONDecodingError) -> RateTable {
        let baseField = json["base"]
        let answered = try baseField.string()
        guard answered == base else {
            throw baseField.failure("asked for rates from \(base), the answer is from \(answered)")
        }
        let amountField = json["amount"]
        if amountField.isPresent, try amountField.decimal() != 1 {
            throw amountField.failure("expected rates for an amount of 1")
        }
        let dateField = json["date"]
        let dateText = try dateField.string()
        guard let day = ECBCalendar.Day(dateText) else {
            throw dateField.failure("'\(dateText.prefix(40))' is not a YYYY-MM-DD date")
        }
        var rates: [String: Decimal] = [:]
        var refused: [RateRefusal] = []
        for member in try json["rates"].members() {
            guard (try? AssetCode.validateCurrency(member.key)) == member.key else { continue }
            let rate = try member.value.decimal()
            if let refusal = RateRefusal.check(code: member.key, rate: rate) {
                refused.append(refusal)
            } else {
                rates[member.key] = rate
            }
        }
        if rates[answered] == nil && !refused.contains(where: { $0.code == answered }) { rates[answered] = 1 }
        return RateTable(
            source: FrankfurterAdapter.descriptor.id,
            base: answered,
            rates: rates,
            asOf: ECBCalendar.publication(on: day),
            nextUpdate: ECBCalendar.nextPublication(after: day),
            refused: refused.sorted { $0.code < $1.code }
        )
    }
}
