/// Durations as users type them (`600`, `30s`, `10m`, `1h`, `3d`) and ages as tables show them
/// (`3m ago`). Every option and config key that takes seconds reads them here.
package enum DurationText {
    /// The longest duration accepted, in seconds: a year, far beyond any useful cache age, and
    /// small enough that milliseconds never overflow.
    static let maximumSeconds: Int64 = 366 * 24 * 3600

    /// The seconds `text` stands for: whole seconds (`600`), or a whole number followed by `s`,
    /// `m`, `h` or `d` (`30s`, `10m`, `1h`, `3d`). `nil` for anything else, including negative, fractional,
    /// empty or over-long values.
    package static func seconds(from text: String) -> Int64? {
        guard let (digits, unit) = split(text), digits.allSatisfy({ $0.isASCII && $0.isNumber }),
            let count = Int64(digits)
        else { return nil }
        let (seconds, overflow) = count.multipliedReportingOverflow(by: unit)
        guard !overflow, seconds <= maximumSeconds else { return nil }
        return seconds
    }

    /// As `seconds(from:)`, with a fraction allowed before the unit (`0.5`, `1.5s`, `2.5m`).
    static func fractionalSeconds(from text: String) -> Double? {
        guard let (digits, unit) = split(text) else { return nil }
        let parts = digits.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2, !(parts.first ?? "").isEmpty, parts.count == 1 || !parts[1].isEmpty,
            parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            let count = Double(digits)
        else { return nil }
        let seconds = count * Double(unit)
        guard seconds.isFinite, seconds <= Double(maximumSeconds) else { return nil }
        return seconds
    }

    /// The number and the unit's seconds: `10m` is (`10`, 60).
    private static func split(_ text: String) -> (Substring, Int64)? {
        var digits = Substring(text)
        var unit: Int64 = 1
        switch digits.last {
        case "s": unit = 1
        case "m": unit = 60
        case "h": unit = 3600
        case "d": unit = 86_400
        default: break
        }
        if unit != 1 || digits.last == "s" { digits = digits.dropLast() }
        guard !digits.isEmpty, digits.count <= 12 else { return nil }
        return (digits, unit)
    }

    /// How long ago, in the largest whole unit: `45s ago`, `3m ago`, `2h ago`, `1d ago`.
    /// A negative age (a clock that went back) reads `0s ago`.
    package static func ago(seconds: Int64) -> String {
        let seconds = max(seconds, 0)
        switch seconds {
        case ..<60: return "\(seconds)s ago"
        case ..<3600: return "\(seconds / 60)m ago"
        case ..<86_400: return "\(seconds / 3600)h ago"
        default: return "\(seconds / 86_400)d ago"
        }
    }
}
