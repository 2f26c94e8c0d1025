/// Upbit's `Remaining-Req` response header: how many more requests its rate-limit group allows
/// in the current second.
///
/// `group=ticker; min=600; sec=9` parses to group `ticker`, `perSecond` 9 and `perMinute` 600.
/// Upbit documents `min` as deprecated (a fixed value) and has sent it in every answer so far;
/// it is kept when present and not required. A rate limiter reads `perSecond`.
public struct UpbitRemainingRequests: Sendable, Equatable {
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
        var fields: [String: String] = [:]
        for field in header.split(separator: ";") {
            let pair = field.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard pair.count == 2 else { return nil }
            let key = pair[0].trimmingSpaces
            guard !key.isEmpty, fields[key] == nil else { return nil }
            fields[key] = pair[1].trimmingSpaces
        }
        guard let group = fields["group"], !group.isEmpty,
            let second = fields["sec"].flatMap({ Int($0) }), second >= 0
        else { return nil }
        var minute: Int?
        if let text = fields["min"] {
            guard let value = Int(text), value >= 0 else { return nil }
            minute = value
        }
        self.init(group: group, perSecond: second, perMinute: minute)
    }
}

extension Substring {
    fileprivate var trimmingSpaces: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
