import AggCore
import AggJSON
import FoundationEssentials

/// Decoding of ExchangeRate-API open-access answers into `RateTable`s.
enum ExchangeRateDecoding {
    /// The `result` of a successful answer.
    static let successResult = "success"

    /// The API's envelope: `{"result":"success",...}`, or an error
    /// `{"result":"error","error-type":"unsupported-code"}`, with HTTP 200 as well.
    static let envelope = ResponseEnvelope(error: { json, _ in venueError(in: json) }, payload: payload)

    /// The venue error in an answer's envelope (`{"result":"error","error-type":"unsupported-code"}`),
    /// if any.
    ///
    /// Any `result` other than `"success"` is an error, whatever the HTTP status (the API sends
    /// its errors with 200 as well). The error type becomes the error's code. The API sends no
    /// message, so the message is the meaning the provider's documentation gives the type.
    static func venueError(in json: JSONCursor) -> VenueErrorFields? {
        guard let result = try? json["result"].text(), result != successResult else { return nil }
        let type = (try? json["error-type"].text()) ?? ""
        return VenueErrorFields(code: type.isEmpty ? result : type, message: meaning(ofErrorType: type))
    }

    /// A successful answer, which always says so in `result`.
    static func payload(_ json: JSONCursor) throws(JSONDecodingError) -> JSONCursor {
        guard try json["result"].string() == successResult else { throw json["result"].failure("expected \"success\"") }
        return json
    }

    /// What the provider's documentation says an error type means.
    static func meaning(ofErrorType type: String) -> String {
        switch type {
        case "unsupported-code": "the currency code is not supported"
        case "malformed-request": "the request does not have the form the API expects"
        case "quota-reached": "the request quota is used up; the open access API blocks for about 20 minutes"
        case "invalid-key": "the API key is not valid"
        case "inactive-account": "the account is not active"
        default: "the provider reported an error"
        }
    }

    /// The rate table of a successful `/v6/latest/{BASE}` answer.
    ///
    /// Rates keep the exact decimal text of the JSON numbers, integers (`"USD":1`) and
    /// decimals alike. Each rate is read on its own (`RateEntries`): one that is not a JSON
    /// number (the API documents and sends numbers), or cannot be an exchange rate (zero,
    /// negative, beyond `RateRefusal`'s plausible range), or whose key is not a currency code,
    /// is left out and listed in `refused`; the other currencies answer.
    ///
    /// The update time is a venue time (`ValueBounds`: 2009-01-03 to a day after `now`); the
    /// next update, when given, lies after it and at most `nextUpdateReach` later. Either out of
    /// bounds fails the table at its path.
    ///
    /// - Parameters:
    ///   - base: the base currency asked for; an answer for another base is rejected.
    ///   - now: the clock's reading that bounds the table's time.
    static func rateTable(_ json: JSONCursor, base: String, now: Timestamp = ValueBounds.systemNow())
        throws(JSONDecodingError) -> RateTable
    {
        let baseField = json["base_code"]
        let answered = try baseField.string()
        guard answered == base else {
            throw baseField.failure("asked for rates from \(base), the answer is from \(answered)")
        }
        let entries = try RateEntries.members(of: json["rates"])
        let lastField = json["time_last_update_unix"]
        let asOf = try lastField.venueTime(try time(lastField, seconds: try lastField.int64()), now: now)
        let nextField = json["time_next_update_unix"]
        let nextUpdate = try nextField.optionalInt64().map { seconds throws(JSONDecodingError) in
            let next = try time(nextField, seconds: seconds)
            guard next >= asOf, next.millisecondsSince1970 - asOf.millisecondsSince1970 <= nextUpdateReach else {
                throw nextField.failure("\(next) is not within a week after the update of \(asOf)")
            }
            return next
        }
        return RateTable(
            source: ExchangeRateAdapter.descriptor.id,
            base: answered,
            rates: entries.rates,
            asOf: asOf,
            nextUpdate: nextUpdate,
            refused: entries.refused.sorted { $0.code < $1.code }
        )
    }

    /// How long after an update the next one may be announced, in milliseconds: a week (the API
    /// announces the next day's, about 24 hours on).
    static let nextUpdateReach: Int64 = 7 * 86_400_000

    /// `seconds` of `field` as an instant, or a decoding failure when they are out of range.
    private static func time(_ field: JSONCursor, seconds: Int64) throws(JSONDecodingError) -> Timestamp {
        guard let time = Timestamp(checkedSecondsSince1970: seconds) else {
            throw field.failure("\(seconds) seconds is out of range")
        }
        return time
    }
}
