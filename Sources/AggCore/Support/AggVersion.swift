/// The version of agg, sent as `User-Agent: agg/<version>` and printed by `agg --version`.
public enum AggVersion {
    public static let current = "0.1.0"

    /// The `User-Agent` header value.
    public static var userAgent: String { "agg/\(current)" }
}
