import Synchronization

/// Writes the Prometheus text exposition format, version 0.0.4: `# HELP` and `# TYPE` once per
/// metric family, then its samples, label values escaped as the format says (backslash, double
/// quote and newline).
public struct PrometheusText: Sendable {
    /// The content type of the format.
    public static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    /// The text as UTF-8: written as bytes, since `/metrics` writes hundreds of samples a
    /// request and a byte append costs a fraction of a string append.
    public private(set) var bytes: [UInt8] = []

    /// The text.
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    /// An empty text with room for `capacity` bytes.
    public init(capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    /// Starts the family `name`.
    public mutating func family(_ name: String, type: String, help: String) {
        bytes += "# HELP ".utf8
        bytes += name.utf8
        bytes.append(0x20)
        bytes += Self.escapeHelp(help).utf8
        bytes += "\n# TYPE ".utf8
        bytes += name.utf8
        bytes.append(0x20)
        bytes += type.utf8
        bytes.append(0x0A)
    }

    /// One sample: `name{label="value",...} value`.
    public mutating func sample(_ name: String, _ labels: [(String, String)] = [], _ value: String) {
        bytes += name.utf8
        if !labels.isEmpty {
            bytes.append(0x7B)  // {
            for (index, label) in labels.enumerated() {
                if index > 0 { bytes.append(0x2C) }  // ,
                bytes += label.0.utf8
                bytes += "=\"".utf8
                bytes += Self.escapeLabel(label.1).utf8
                bytes.append(0x22)  // "
            }
            bytes.append(0x7D)  // }
        }
        bytes.append(0x20)
        bytes += value.utf8
        bytes.append(0x0A)
    }

    /// A label value: `\` → `\\`, `"` → `\"`, newline → `\n`.
    public static func escapeLabel(_ value: String) -> String {
        // Most values need nothing: checked on the bytes, without walking characters.
        guard value.utf8.contains(where: { $0 == 0x5C || $0 == 0x22 || $0 == 0x0A }) else { return value }
        var out = ""
        for character in value {
            switch character {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            default: out.append(character)
            }
        }
        return out
    }

    /// HELP text: `\` → `\\`, newline → `\n`.
    static func escapeHelp(_ value: String) -> String {
        escapeLabel(value).split(separator: "\\\"", omittingEmptySubsequences: false).joined(separator: "\"")
    }

    /// A value for a sample: integers without a fraction, others in Swift's shortest form.
    public static func number(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value > 0 ? "+Inf" : "-Inf" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }
}

/// Request durations by label, in cumulative buckets, for a Prometheus histogram; and counts by
/// label pairs. Safe to update from any thread.
public final class DurationHistograms: Sendable {
    /// Upper bounds in seconds.
    public let bounds: [Double]
    /// `bounds` as `le` label values, written once.
    private let boundLabels: [String]
    private let state: Mutex<[String: Series]>

    private struct Series {
        var buckets: [UInt64]
        var count: UInt64 = 0
        var sum: Double = 0
    }

    public static let standardBounds: [Double] = [
        0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
    ]

    public init(bounds: [Double] = DurationHistograms.standardBounds) {
        self.bounds = bounds
        boundLabels = bounds.map(PrometheusText.number)
        state = Mutex([:])
    }

    public func observe(_ label: String, seconds: Double) {
        let index = bounds.firstIndex { seconds <= $0 }
        state.withLock { state in
            var series = state[label] ?? Series(buckets: Array(repeating: 0, count: bounds.count))
            if let index { series.buckets[index] += 1 }
            series.count += 1
            series.sum += seconds
            state[label] = series
        }
    }

    /// How many observations `label` has.
    public func count(_ label: String) -> UInt64 { state.withLock { $0[label]?.count ?? 0 } }

    /// Writes the histogram `name` with one series per label value under `labelName`.
    public func write(to text: inout PrometheusText, name: String, labelName: String, help: String) {
        let series = state.withLock { $0 }
        text.family(name, type: "histogram", help: help)
        let bucket = name + "_bucket"
        for key in series.keys.sorted() {
            guard let one = series[key] else { continue }
            var cumulative: UInt64 = 0
            for (bound, count) in zip(boundLabels, one.buckets) {
                cumulative += count
                text.sample(bucket, [(labelName, key), ("le", bound)], String(cumulative))
            }
            text.sample(bucket, [(labelName, key), ("le", "+Inf")], String(one.count))
            text.sample(name + "_sum", [(labelName, key)], PrometheusText.number(one.sum))
            text.sample(name + "_count", [(labelName, key)], String(one.count))
        }
    }
}

/// Counters keyed by a pair of label values.
public final class PairCounters: Sendable {
    private let state = Mutex<[Pair: UInt64]>([:])

    private struct Pair: Hashable, Comparable {
        var first: String
        var second: String
        static func < (a: Pair, b: Pair) -> Bool { (a.first, a.second) < (b.first, b.second) }
    }

    public init() {}

    public func increment(_ first: String, _ second: String) {
        state.withLock { $0[Pair(first: first, second: second), default: 0] += 1 }
    }

    public func value(_ first: String, _ second: String) -> UInt64 {
        state.withLock { $0[Pair(first: first, second: second)] ?? 0 }
    }

    /// The total over every pair whose first value is `first`.
    public func total(_ first: String) -> UInt64 {
        state.withLock { $0.filter { $0.key.first == first }.values.reduce(0, +) }
    }

    public func write(to text: inout PrometheusText, name: String, labels: (String, String), help: String) {
        let values = state.withLock { $0 }
        text.family(name, type: "counter", help: help)
        for pair in values.keys.sorted() {
            text.sample(name, [(labels.0, pair.first), (labels.1, pair.second)], String(values[pair] ?? 0))
        }
    }
}
