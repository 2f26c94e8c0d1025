import AggCore
import AggJSON
import FoundationEssentials

/// Decoding of Dunamu's `/v1/forex/recent` answers into `RateTable`s.
enum DunamuDecoding {
    /// Dunamu's answers: a bare JSON array with no error envelope of its own (an unknown code is
    /// an empty array, which `rateTable` reports); only the HTTP status tells of other failures.
    static let envelope = ResponseEnvelope.none

    /// The code of the error for an answer that holds no quote for the code asked for.
    static let emptyCode = "empty"

    /// The rate table from `base` in an answer to `/v1/forex/recent?codes=FRX.KRW{BASE}` (an
    /// array of quotes, one per code asked for), or `nil` when no quote in it has the code
    /// (Dunamu answers an unknown code with `[]`).
    ///
    /// The rate is `basePrice` (Hana Bank's 매매기준율, its mid rate) divided by `currencyUnit`
    /// (100 for JPY, which is quoted per 100 yen), exactly: the unit must be a power of ten.
    /// `asOf` is `timestamp`, the moment Dunamu recorded the quote (a few seconds after the
    /// bank's own `date` and `time`, which are Korean wall-clock time). The table holds KRW
    /// and the base itself, as 1; a KRW rate that is not a JSON number (Dunamu sends numbers)
    /// or cannot be an exchange rate (`RateRefusal`) is listed in `refused` instead, with its
    /// path (`RateEntries`). `timestamp` is a venue time (`ValueBounds`: 2009-01-03 to a day
    /// after `now`), else the table fails at its path. There is no `nextUpdate`: the bank
    /// revises its rates many times a day.
    static func rateTable(_ json: JSONCursor, base: String, now: Timestamp = ValueBounds.systemNow())
        throws(JSONDecodingError) -> RateTable?
    {
        let code = APIRouter.code(base)
        var found: JSONCursor?
        // Another code's quote, however damaged, is not this table's business.
        for quote in try json.elements() where (try? quote["code"].string()) == code {
            found = quote
            break
        }
        guard let quote = found else { return nil }
        let currencyField = quote["currencyCode"]
        if let currency = try currencyField.optionalString(), currency != base {
            throw currencyField.failure("asked for \(base), the quote is for \(currency.prefix(40))")
        }
        let unitField = quote["currencyUnit"]
        let unit = try unitField.optionalInt64() ?? 1
        guard [1, 10, 100, 1000, 10_000].contains(unit) else {
            throw unitField.failure("a unit of \(unit) is not a power of ten")
        }
        let timeField = quote["timestamp"]
        let asOf = try timeField.venueTime(Timestamp(millisecondsSince1970: try timeField.int64()), now: now)
        var entries = RateEntries()
        entries.read(code: DunamuAdapter.quoteCurrency, decoding: quote["basePrice"]) {
            price throws(JSONDecodingError) in try price.number() / Decimal(unit)
        }
        var rates = entries.rates
        rates[base] = 1
        return RateTable(
            source: DunamuAdapter.descriptor.id, base: base, rates: rates, asOf: asOf, nextUpdate: nil,
            refused: entries.refused)
    }
}
