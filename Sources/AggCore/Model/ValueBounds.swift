import AggJSON
import Foundation

/// The bounds every value a venue sends must be inside before any consumer sees it: a price,
/// size or rate is above zero and below `maximumPrice`; a volume or fee is zero or more; a venue
/// time is between Bitcoin's genesis block and a day after now.
///
/// A value outside fails to decode, at its own JSON path: in a bulk answer it costs only its
/// entry (`BulkAnswer`); in a one-market answer, that market.
public enum ValueBounds {
    /// Larger than any price agg has met in any quote currency (BTC is about 10^8 KRW), far below
    /// what a 41-digit or shifted value would give.
    public static let maximumPrice: Decimal = Decimal(sign: .plus, exponent: 15, significand: 1)
    /// Larger than any volume or fee a venue reports (a day's volume of a meme coin is near 10^15
    /// units).
    public static let maximumAmount: Decimal = Decimal(sign: .plus, exponent: 30, significand: 1)
    /// 2009-01-03T00:00:00Z, the day of Bitcoin's first block: no venue time is older.
    public static let earliestTime = Timestamp(millisecondsSince1970: 1_230_940_800_000)
    /// How far past now a venue's clock may be.
    public static let allowedClockLead: Int64 = 86_400_000

    /// The latest venue time accepted at `now`: a day after it.
    public static func latestTime(now: Timestamp) -> Timestamp {
        Timestamp(millisecondsSince1970: now.millisecondsSince1970 &+ allowedClockLead)
    }

    /// Now, from the system's wall clock.
    public static func systemNow() -> Timestamp {
        Timestamp(millisecondsSince1970: Int64((Date().timeIntervalSince1970 * 1000).rounded()))
    }

    /// The power of ten of `maximumPrice`.
    static let maximumPricePower = 15
    /// The power of ten of `maximumAmount`.
    static let maximumAmountPower = 30

    /// Why `value` is not a price, or `nil` when it is one.
    public static func priceProblem(_ value: Decimal) -> String? {
        if !isAboveZero(value) { return "'\(value)' is not a positive price" }
        if reaches(value, powerOfTen: maximumPricePower) {
            return "'\(value)' is beyond any price (10^15 or more)"
        }
        return nil
    }

    /// Why `value` is not a volume, size of a total or fee, or `nil` when it is one.
    public static func amountProblem(_ value: Decimal) -> String? {
        if isBelowZero(value) { return "'\(value)' is negative" }
        if isAboveZero(value) && reaches(value, powerOfTen: maximumAmountPower) {
            return "'\(value)' is beyond any amount (10^30 or more)"
        }
        return nil
    }

    /// Why `time` is not a venue time at `now`, or `nil` when it is one.
    public static func timeProblem(_ time: Timestamp, now: Timestamp) -> String? {
        if time < earliestTime { return "\(time) is before 2009-01-03" }
        if time > latestTime(now: now) { return "\(time) is more than a day in the future" }
        return nil
    }
}

extension JSONCursor {
    /// The member `key` as a price: a decimal above zero and inside `ValueBounds`.
    public func price(_ key: String) throws(JSONDecodingError) -> Decimal {
        try checked(key, try decimal(key), ValueBounds.priceProblem)
    }

    /// The member `key` as a price, or `nil` when absent, `null`, an empty string or zero.
    ///
    /// A secondary price (open, high, low, previous close) of exactly zero is how venues write
    /// "none" (Binance sends `prevClosePrice` `0.00000000` for a coin whose price in BTC is below
    /// its eight decimals), so it is no price rather than a price of zero; a negative one fails.
    public func optionalPrice(_ key: String) throws(JSONDecodingError) -> Decimal? {
        guard let value = try optionalDecimal(key), !value.isZero else { return nil }
        return try checked(key, value, ValueBounds.priceProblem)
    }

    /// This value as a price.
    public func price() throws(JSONDecodingError) -> Decimal {
        try checked(try decimal(), ValueBounds.priceProblem)
    }

    /// This value as a price, or `nil` when absent, `null`, an empty string or zero (see
    /// `optionalPrice(_:)`).
    public func optionalPrice() throws(JSONDecodingError) -> Decimal? {
        guard let value = try optionalDecimal(), !value.isZero else { return nil }
        return try checked(value, ValueBounds.priceProblem)
    }

    /// This value as an amount (a volume: zero or more, inside bounds).
    public func amount() throws(JSONDecodingError) -> Decimal {
        try checked(try decimal(), ValueBounds.amountProblem)
    }

    /// This value as an amount (zero or more, inside bounds), or `nil` when absent, `null` or an
    /// empty string.
    public func optionalAmount() throws(JSONDecodingError) -> Decimal? {
        guard let value = try optionalDecimal() else { return nil }
        return try checked(value, ValueBounds.amountProblem)
    }

    /// The member `key` as a JSON number that is a price (a venue that documents numbers).
    public func numberPrice(_ key: String) throws(JSONDecodingError) -> Decimal {
        try self[key].checked(try number(key), ValueBounds.priceProblem)
    }

    /// The member `key` as a JSON number that is a price, or `nil` when absent, `null` or zero
    /// (see `optionalPrice(_:)`).
    public func optionalNumberPrice(_ key: String) throws(JSONDecodingError) -> Decimal? {
        guard let value = try optionalNumber(key), !value.isZero else { return nil }
        return try self[key].checked(value, ValueBounds.priceProblem)
    }

    /// The member `key` as an amount (a volume, a total or a fee): zero or more, inside bounds;
    /// `nil` when absent, `null` or an empty string.
    public func optionalAmount(_ key: String) throws(JSONDecodingError) -> Decimal? {
        guard let value = try optionalDecimal(key) else { return nil }
        return try checked(key, value, ValueBounds.amountProblem)
    }

    /// The member `key` as a JSON number that is an amount, or `nil` when absent or `null`.
    public func optionalNumberAmount(_ key: String) throws(JSONDecodingError) -> Decimal? {
        guard let value = try optionalNumber(key) else { return nil }
        return try self[key].checked(value, ValueBounds.amountProblem)
    }

    /// This value as a size (a trade's or a book level's amount): above zero, inside bounds.
    public func size() throws(JSONDecodingError) -> Decimal {
        let value = try decimal()
        if !ValueBounds.isAboveZero(value) { throw failure("'\(value)' is not a positive size") }
        return try checked(value, ValueBounds.amountProblem)
    }

    /// This value, a whole number of milliseconds since 1970, as a venue time inside
    /// `ValueBounds` at `now`; `nil` when absent or `null`.
    public func optionalVenueTime(now: Timestamp = ValueBounds.systemNow())
        throws(JSONDecodingError) -> Timestamp?
    {
        guard let milliseconds = try optionalInt64() else { return nil }
        return try venueTime(Timestamp(millisecondsSince1970: milliseconds), now: now)
    }

    /// `time`, read from this value, when it is a venue time at `now`; else a failure here.
    public func venueTime(_ time: Timestamp, now: Timestamp = ValueBounds.systemNow())
        throws(JSONDecodingError) -> Timestamp
    {
        if let problem = ValueBounds.timeProblem(time, now: now) { throw failure(problem) }
        return time
    }

    /// `self[key].checked(value, problem)`, making the member's cursor only for the failure.
    private func checked(
        _ key: String, _ value: Decimal, _ problem: (Decimal) -> String?
    ) throws(JSONDecodingError) -> Decimal {
        if let problem = problem(value) { throw self[key].failure(problem) }
        return value
    }

    private func checked(_ value: Decimal, _ problem: (Decimal) -> String?) throws(JSONDecodingError) -> Decimal {
        if let problem = problem(value) { throw failure(problem) }
        return value
    }
}
