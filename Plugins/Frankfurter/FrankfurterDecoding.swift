import AggCore
import AggJSON
import FoundationEssentials

/// Decoding of Frankfurter's `/v1/latest` answers into `RateTable`s.
enum FrankfurterDecoding {
    /// Frankfurter's answers: bare JSON; an error is `{"message":"not found"}` (HTTP 404 for a
    /// base it does not know).
    static let envelope = ResponseEnvelope(error: venueError)

    /// The venue error in an answer, if any. Frankfurter sends no code, so the HTTP status stands
    /// in; the message is kept verbatim. Successful answers never carry a top-level `message`.
    static func venueError(in json: JSONCursor, response: HTTPResponse) -> VenueErrorFields? {
        guard case .string(let message)? = json["message"].value else { return nil }
        return VenueErrorFields(code: String(response.status), message: message)
    }

    /// The rate table of a successful answer (`{"amount":1.0,"base":"USD","date":"2024-08-07",
    /// "rates":{"KRW":1373.59,...}}`).
    ///
    /// Rates keep the exact decimal text of the JSON numbers (Frankfurter rounds them to 2 to
    /// 6 decimals by size, and writes the smallest with an exponent, `6.7e-05`). The base is
    /// not among the rates: it is added as 1. Each rate is read on its own (`RateEntries`): one
    /// that is not a JSON number (Frankfurter documents and sends numbers), or cannot be an
    /// exchange rate (zero, negative, beyond `RateRefusal`'s plausible range), or whose key is
    /// not a currency code, is left out and listed in `refused`; the other currencies answer.
    /// `asOf` and `nextUpdate` come from the date (see `ECBCalendar`); `asOf` is a venue time
    /// (`ValueBounds`: 2009-01-03 to a day after `now`), else the table fails at `$.date`.
    ///
    /// - Parameters:
    ///   - base: the base currency asked for; an answer for another base is refused.
    ///   - now: the clock's reading that bounds the table's time.
    static func rateTable(_ json: JSONCursor, base: String, now: Timestamp = ValueBounds.systemNow())
        throws(JSONDecodingError) -> RateTable
    {
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
        let asOf = try dateField.venueTime(ECBCalendar.publication(on: day), now: now)
        let entries = try RateEntries.members(of: json["rates"])
        var rates = entries.rates
        if rates[answered] == nil && !entries.refused.contains(where: { $0.code == answered }) { rates[answered] = 1 }
        return RateTable(
            source: FrankfurterAdapter.descriptor.id,
            base: answered,
            rates: rates,
            asOf: asOf,
            nextUpdate: ECBCalendar.nextPublication(after: day),
            refused: entries.refused.sorted { $0.code < $1.code }
        )
    }
}
