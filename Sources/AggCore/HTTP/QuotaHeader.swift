/// The response headers in which venues report how much of their request quota is left.
///
/// A venue names its format in its descriptor (`AdapterDescriptor.quotaHeader`); the rate
/// limiter (`RateLimitedHTTPClient`) reads every answer with it and holds the venue's next
/// request when the quota is spent, rather than running into a 429.
public enum QuotaHeader: String, Sendable, Equatable, CaseIterable {
    /// Upbit's `Remaining-Req: group=ticker; min=600; sec=9`: requests left in the current
    /// second of one rate-limit group. None left: wait a second.
    case remainingReq
    /// `Ratelimit: limit=50, remaining=48, reset=1` (Korbit): requests left in the current
    /// window and the whole seconds until it resets. None left: wait until the reset, and at
    /// least a second (a window about to reset reads `reset=0`).
    case rateLimit
    /// Binance's `X-MBX-USED-WEIGHT-1M: 82`: the request weight used in the current minute of
    /// Binance's clock, of `weightPerMinute`. When what is left cannot take the heaviest request
    /// agg makes (`heaviestWeight`), wait for the next minute, which the answer's `Date` header
    /// places to the second (a whole minute when it has none).
    case usedWeight

    /// Binance's request weight allowed per minute from one address.
    public static let weightPerMinute = 6000
    /// The weight of the heaviest request agg makes of Binance: the order book at 5000 levels.
    public static let heaviestWeight = 250

    /// The header's name.
    public var name: String {
        switch self {
        case .remainingReq: "Remaining-Req"
        case .rateLimit: "Ratelimit"
        case .usedWeight: "X-MBX-USED-WEIGHT-1M"
        }
    }

    /// Seconds to hold the venue's next request after `response`, or `nil` to go on at the
    /// usual rate (quota left, or no readable header).
    public func pause(after response: HTTPResponse) -> Double? {
        guard let value = response.header(name) else { return nil }
        switch self {
        case .remainingReq:
            guard let remaining = RemainingRequests(header: value) else { return nil }
            return remaining.perSecond == 0 ? 1 : nil
        case .rateLimit:
            guard let window = RateLimitWindow(header: value) else { return nil }
            return window.remaining == 0 ? Double(max(window.reset, 1)) : nil
        case .usedWeight:
            guard let used = Int(ASCIIText.trimmed(value)), used + Self.heaviestWeight > Self.weightPerMinute
            else { return nil }
            return Double(60 - (response.header("Date").flatMap(Self.secondOfMinute) ?? 0))
        }
    }

    /// The seconds field of an HTTP date (`Thu, 08 Aug 2024 08:12:15 GMT` → 15).
    static func secondOfMinute(_ date: String) -> Int? {
        guard let clock = date.split(separator: " ").first(where: { $0.contains(":") }) else { return nil }
        let fields = clock.split(separator: ":")
        guard fields.count == 3, let second = Int(fields[2]), (0...59).contains(second) else { return nil }
        return second
    }
}

/// Upbit's `Remaining-Req` header: how many more requests its rate-limit group allows in the
/// current second.
///
/// `group=ticker; min=600; sec=9` parses to group `ticker`, `perSecond` 9 and `perMinute` 600.
/// Upbit documents `min` as deprecated (a fixed value) and has sent it in every answer so far;
/// it is kept when present and not required.
public struct RemainingRequests: Sendable, Equatable {
    /// The rate-limit group the request counted against (`ticker`, `market`, `default`).
    public var group: String
    /// Requests left in the current second.
    public var perSecond: Int
    /// The deprecated per-minute figure, when sent.
    public var perMinute: Int?

    public init(group: String, perSecond: Int, perMinute: Int? = nil) {
        self.group = group
        self.perSecond = perSecond
        self.perMinute = perMinute
    }

    /// The header's value parsed, or `nil` when it lacks a group or a whole `sec` count.
    ///
    /// Fields are `key=value` separated by `;`, in any order, with optional spaces; unknown
    /// keys are ignored so that a new field does not hide the ones agg reads.
    public init?(header: String) {
        guard let fields = QuotaFields(header, separator: ";"),
            let group = fields["group"], !group.isEmpty,
            let second = fields.count("sec")
        else { return nil }
        var minute: Int?
        if fields["min"] != nil {
            guard let value = fields.count("min") else { return nil }
            minute = value
        }
        self.init(group: group, perSecond: second, perMinute: minute)
    }
}

/// The `Ratelimit` header: `limit=50, remaining=48, reset=1`.
public struct RateLimitWindow: Sendable, Equatable {
    /// Requests allowed in a window.
    public var limit: Int
    /// Requests left in the current window.
    public var remaining: Int
    /// Seconds until the window resets.
    public var reset: Int

    public init(limit: Int, remaining: Int, reset: Int) {
        self.limit = limit
        self.remaining = remaining
        self.reset = reset
    }

    /// The header's value parsed, or `nil` unless `limit`, `remaining` and `reset` are all whole
    /// counts. Fields are `key=value` separated by `,`, in any order, with optional spaces;
    /// unknown keys are ignored.
    public init?(header: String) {
        guard let fields = QuotaFields(header, separator: ","),
            let limit = fields.count("limit"), let remaining = fields.count("remaining"),
            let reset = fields.count("reset")
        else { return nil }
        self.init(limit: limit, remaining: remaining, reset: reset)
    }
}

/// `key=value` fields of a quota header, each key at most once.
private struct QuotaFields {
    private var values: [String: String] = [:]

    init?(_ header: String, separator: Character) {
        for field in header.split(separator: separator) {
            let pair = field.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard pair.count == 2 else { return nil }
            let key = ASCIIText.trimmed(String(pair[0]))
            guard !key.isEmpty, values[key] == nil else { return nil }
            values[key] = ASCIIText.trimmed(String(pair[1]))
        }
    }

    subscript(key: String) -> String? { values[key] }

    /// The field as a whole count of 0 or more (digits only), or `nil`.
    func count(_ key: String) -> Int? {
        guard let text = values[key], !text.isEmpty, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
            return nil
        }
        return Int(text)
    }
}
