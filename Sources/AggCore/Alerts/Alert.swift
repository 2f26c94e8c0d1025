import AggJSON
import FoundationEssentials

/// One alert: a rule's condition became true on one venue at one tick.
public struct Alert: Sendable, Equatable {
    /// What the venue showed when the alert fired.
    public enum Reading: Sendable, Equatable {
        /// A price or a percent.
        case number(Decimal)
        /// Withdrawals or deposits are closed.
        case closed
        /// The market event an event rule matched.
        case event(MarketEvent)
    }

    /// The tick's time.
    public var time: Timestamp
    /// The rule that fired.
    public var rule: AlertRule
    /// The venue it fired on.
    public var exchange: String
    public var reading: Reading
    /// How many crossings of the same rule on the same venue the cooldown held back since this
    /// alert's previous delivery: they are folded into this one.
    public var folded: Int
    /// When the first of the `folded` crossings happened; `nil` when none was folded.
    public var foldedSince: Timestamp?

    public init(
        time: Timestamp, rule: AlertRule, exchange: String, reading: Reading, folded: Int = 0,
        foldedSince: Timestamp? = nil
    ) {
        self.time = time
        self.rule = rule
        self.exchange = exchange
        self.reading = reading
        self.folded = folded
        self.foldedSince = foldedSince
    }

    /// The alert as one JSON object on one line (no line break): what `--alert-log` appends and
    /// `--on-alert` reads on standard input.
    ///
    /// `{"time":"2024-08-08T08:12:15.000Z","rule":"BTC premium > 3%","exchange":"upbit","symbol":"BTC","field":"premium","value":"3.12","threshold":"3"}`:
    /// `rule` as the user wrote it (normalized), numbers as exact decimal strings (percents
    /// without `%`), for a transfer rule `"value":"closed","threshold":null`, and for an event
    /// rule `"symbol"` the event's coin (or `null`), `"value"` its kind, `"threshold":null`, then
    /// `"network","detail","firstObserved"` and `"venueTime"` when the venue gave one. When the
    /// cooldown held crossings back, `"folded":3,"foldedSince":"…"` follow (absent otherwise).
    public var json: String {
        var writer = JSONWriter(capacity: 192)
        writer.beginObject()
        writer.key("time")
        writer.unescapedString { time.appendISO8601(to: &$0) }
        writer.member("rule", string: rule.text)
        writer.member("exchange", string: exchange)
        if case .event(let event) = reading {
            // The event's own coin (`null` for a venue-wide notice), not the rule's `*`.
            writer.member("symbol", string: event.symbol)
        } else {
            writer.member("symbol", string: rule.symbol)
        }
        writer.member("field", string: rule.fieldName)
        switch (reading, rule.condition) {
        case (.number(let value), .threshold(_, _, let threshold)):
            writer.member("value", decimal: value)
            writer.member("threshold", decimal: threshold)
        case (.event(let event), _):
            writer.member("value", string: event.kind.rawValue)
            writer.member("threshold", string: nil)
            writer.member("network", string: event.network)
            writer.member("detail", string: event.detail)
            writer.key("firstObserved")
            writer.unescapedString { event.firstObserved.appendISO8601(to: &$0) }
            if let venueTime = event.venueTime {
                writer.key("venueTime")
                writer.unescapedString { venueTime.appendISO8601(to: &$0) }
            }
        default:
            writer.member("value", string: "closed")
            writer.member("threshold", string: nil)
        }
        if folded > 0 {
            writer.member("folded", integer: Int64(folded))
            if let foldedSince {
                writer.key("foldedSince")
                writer.unescapedString { foldedSince.appendISO8601(to: &$0) }
            }
        }
        writer.endObject()
        return writer.text
    }

    /// The alert in words, for a line on standard error:
    /// `upbit BTC premium 3.12% (rule BTC premium > 3%)`, `bithumb BTC withdraw closed (rule BTC withdraw closed)`,
    /// `upbit ADA listed: 에이다 / Cardano (rule upbit:* listed)`;
    /// with crossings folded into it, `... (+3 more since 12:01:05 UTC)`.
    public var summary: String {
        if case .event(let event) = reading {
            let coin = event.symbol.map { $0 + " " } ?? ""
            let network = event.network.map { " " + $0 } ?? ""
            let detail = event.detail.isEmpty ? "" : ": " + event.detail
            return "\(exchange) \(coin)\(AlertRule.eventWords(event.kind))\(network)\(detail) (rule \(rule.text))"
                + foldedText
        }
        let shown: String
        switch (reading, rule.condition) {
        case (.number(let value), .threshold(let field, _, _)):
            shown = "\(rule.fieldName) \(AlertRule.valueText(value, field: field))"
        default:
            shown = "\(rule.fieldName) closed"
        }
        return "\(exchange) \(rule.symbol) \(shown) (rule \(rule.text))" + foldedText
    }

    /// ` (+3 more since 12:01:05 UTC)`, or nothing when no crossing was folded.
    public var foldedText: String {
        guard folded > 0 else { return "" }
        guard let foldedSince else { return " (+\(folded) more)" }
        let civil = foldedSince.civilParts(offsetSeconds: 0)
        func two(_ number: Int) -> String { number < 10 ? "0\(number)" : "\(number)" }
        return " (+\(folded) more since \(two(civil.hour)):\(two(civil.minute)):\(two(civil.second)) UTC)"
    }
}
