import AggCore
import AggJSON
import FoundationEssentials

/// How fees read in `agg status`: a withdrawal fee (`0.0005 BTC`, `0.1% (min 0.0002, max 0.01)`),
/// where it comes from (`venue`, `table 2026-09-23`, `config`) and a venue's taker fee.
enum FeeText {
    /// A fraction as a percentage, exactly: 0.001 is `0.1%`.
    static func percent(_ rate: Decimal) -> String {
        "\(DecimalText.format(rate * 100))%"
    }

    /// The fee in words a trader reads: a fixed fee with its coin, or a rate with its bounds.
    static func withdrawal(_ fee: WithdrawalFee, coin: String) -> String {
        switch fee {
        case .fixed(let amount):
            return "\(DecimalText.format(amount)) \(coin)"
        case .percentage(let rate, let minimum, let maximum):
            var bounds: [String] = []
            if minimum > 0 { bounds.append("min \(DecimalText.format(minimum))") }
            if let maximum { bounds.append("max \(DecimalText.format(maximum))") }
            return percent(rate) + (bounds.isEmpty ? "" : " (\(bounds.joined(separator: ", ")))")
        }
    }

    /// The fee model's name in JSON and CSV.
    static func model(_ fee: WithdrawalFee) -> String {
        switch fee {
        case .fixed: "fixed"
        case .percentage: "percentage"
        }
    }

    /// Where a withdrawal fee comes from, short: `venue`, `table 2026-09-23, 72 days old` (its
    /// age at `time`, the row's time; the day alone without one), `config`.
    static func source(_ source: WithdrawalFeeSource, at time: Timestamp? = nil) -> String {
        switch source {
        case .venue: "venue"
        case .table(_, let asOf): "table \(asOf)" + (age(asOf, at: time).map { ", \($0)" } ?? "")
        case .configuration: "config"
        }
    }

    /// How old a table read on `asOf` was at `time`: `72 days old`, `1 day old`, `0 days old`;
    /// `nil` without a time.
    static func age(_ asOf: String, at time: Timestamp?) -> String? {
        guard let time, let days = WithdrawalFeeTable.ageInDays(asOf: asOf, at: time) else { return nil }
        return days == 1 ? "1 day old" : "\(days) days old"
    }

    /// The kind of a withdrawal fee's source in JSON and CSV.
    static func sourceKind(_ source: WithdrawalFeeSource) -> String {
        switch source {
        case .venue: "venue"
        case .table: "table"
        case .configuration: "configuration"
        }
    }

    /// One venue's taker fee: `bithumb 0.25% (schedule read 2026-09-22)`, `upbit 0.04% (config file)`.
    static func taker(_ fee: TransferStatusService.VenueTakerFee) -> String {
        let origin =
            switch fee.choice.source {
            case .schedule(_, let asOf): "published schedule, read \(asOf)"
            case .configuration: "config file"
            }
        return "\(fee.exchange) \(percent(fee.choice.fee.rate)) (\(origin))"
    }
}
