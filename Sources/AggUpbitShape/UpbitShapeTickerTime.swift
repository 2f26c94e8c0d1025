import AggCore
import AggJSON

/// Which fields of an Upbit-shaped ticker give its time.
///
/// Upbit's `timestamp` is epoch milliseconds. Bithumb's v1 REST ticker documents `timestamp`
/// and `trade_timestamp` as epoch milliseconds too, but sends Korean wall time written as if it
/// were UTC: 9 hours ahead (a real body: `trade_date` `20260701`, `trade_time` `233533`,
/// `timestamp` `1782981333650`, which is 2026-07-02T08:35:33.650Z). Its `trade_date` and
/// `trade_time` are documented as UTC and are (apidocs.bithumb.com/reference/현재가-조회;
/// measured by repo nemanull/arbitrage-observatory, docs/profiles/bithumb/rest.md §7).
public enum UpbitShapeTickerTime: Sendable, Equatable {
    /// `timestamp`, epoch milliseconds (Upbit).
    case timestamp
    /// The last trade's time: `trade_date` and `trade_time` (UTC, whole seconds), with the
    /// milliseconds of `trade_timestamp` when that names the same second, read as epoch
    /// milliseconds or as Korean wall time 9 hours ahead (Bithumb's v1). A `trade_timestamp`
    /// that is neither is ignored, so the time never depends on which way the venue writes it.
    case lastTradeUTC
    /// The same with `trade_date` and `trade_time` in Korean time (UTC+9), as Bithumb's stream
    /// writes them (`20260923` `121833` with `trade_timestamp` `1790133513858`, which is
    /// 2026-09-23T03:18:33.858Z; repo nemanull/arbitrage-observatory,
    /// docs/profiles/bithumb/websocket.md §6). `trade_timestamp` may come as a string.
    case lastTradeKST

    /// Korea's offset from UTC (no daylight saving), in milliseconds.
    static let koreaOffsetMilliseconds: Int64 = 9 * 3_600_000

    /// The time of `ticker`, or `nil` when it carries none; a time outside `ValueBounds` fails
    /// at its field.
    public func read(_ ticker: JSONCursor) throws(JSONDecodingError) -> Timestamp? {
        switch self {
        case .timestamp:
            return try ticker["timestamp"].optionalVenueTime()
        case .lastTradeUTC:
            guard let time = try lastTrade(ticker, zone: "UTC", offset: 0) else { return nil }
            return try ticker["trade_time"].venueTime(time)
        case .lastTradeKST:
            guard let time = try lastTrade(ticker, zone: "KST", offset: Self.koreaOffsetMilliseconds) else {
                return nil
            }
            return try ticker["trade_time"].venueTime(time)
        }
    }

    /// The last trade's time of a Bithumb v1 ticker, whose date and time are written `offset`
    /// milliseconds ahead of UTC (`zone` names it in messages), before its bounds are checked.
    private func lastTrade(_ ticker: JSONCursor, zone: String, offset: Int64) throws(JSONDecodingError)
        -> Timestamp?
    {
        let dateField = ticker["trade_date"]
        let timeField = ticker["trade_time"]
        guard let date = try dateField.optionalString(), let time = try timeField.optionalString() else {
            return nil
        }
        guard let wall = Self.utc(date: date, time: time) else {
            throw timeField.failure("expected trade_date 'YYYYMMDD' and trade_time 'HHMMSS' (\(zone))")
        }
        let second = Timestamp(millisecondsSince1970: wall.millisecondsSince1970 - offset)
        guard let stamp = try ticker["trade_timestamp"].optionalInt64() else { return second }
        for candidate in [stamp, stamp &- Self.koreaOffsetMilliseconds]
        where Self.floorSeconds(candidate) == second.millisecondsSince1970 / 1000 {
            return Timestamp(millisecondsSince1970: candidate)
        }
        return second
    }

    /// `20260701` and `233533` as 2026-07-01T23:35:33Z, or `nil` when they are not that layout.
    static func utc(date: String, time: String) -> Timestamp? {
        let digits = Array(date.utf8) + Array(time.utf8)
        guard date.utf8.count == 8, time.utf8.count == 6,
            digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
        else { return nil }
        func number(_ range: Range<Int>) -> Int {
            digits[range].reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
        }
        return Timestamp(
            civil: CivilTime(
                year: number(0..<4), month: number(4..<6), day: number(6..<8), hour: number(8..<10),
                minute: number(10..<12), second: number(12..<14)),
            offsetSeconds: 0)
    }

    /// Whole seconds of `milliseconds`, rounded down.
    private static func floorSeconds(_ milliseconds: Int64) -> Int64 {
        let (quotient, remainder) = milliseconds.quotientAndRemainder(dividingBy: 1000)
        return remainder < 0 ? quotient - 1 : quotient
    }
}
