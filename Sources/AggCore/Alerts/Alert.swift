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
    }

    /// The tick's time.
    public var time: Timestamp
    /// The rule that fired.
    public var rule: AlertRule
    /// The venue it fired on.
    public var exchange: String
    public var reading: Reading

    public init(time: Timestamp, rule: AlertRule, exchange: String, reading: Reading) {
        self.time = time
        self.rule = rule
        self.exchange = exchange
        self.reading = reading
    }

    /// The alert as one JSON object on one line (no line break): what `--alert-log` appends and
    /// `--on-alert` reads on standard input.
    ///
    /// `{"time":"2024-08-08T08:12:15.000Z","rule":"BTC premium > 3%","exchange":"upbit","symbol":"BTC","field":"premium","value":"3.12","threshold":"3"}`:
    /// `rule` as the user wrote it (normalized), numbers as exact decimal strings (percents
    /// without `%`), and for a transfer rule `"value":"closed","threshold":null`.
    public var json: String {
        var writer = JSONWriter(capacity: 192)
        writer.beginObject()
        writer.key("time")
        writer.unescapedString { time.appendISO8601(to: &$0) }
        writer.member("rule", string: rule.text)
        writer.member("exchange", string: exchange)
        writer.member("symbol", string: rule.symbol)
        writer.member("field", string: rule.fieldName)
        switch (reading, rule.condition) {
        case (.number(let value), .threshold(_, _, let threshold)):
            writer.member("value", decimal: value)
            writer.member("threshold", decimal: threshold)
        default:
            writer.member("value", string: "closed")
            writer.member("threshold", string: nil)
        }
        writer.endObject()
        return writer.text
    }

    /// The alert in words, for a line on standard error:
    /// `upbit BTC premium 3.12% (rule BTC premium > 3%)`, `bithumb BTC withdraw closed (rule BTC withdraw closed)`.
    public var summary: String {
        let shown: String
        switch (reading, rule.condition) {
        case (.number(let value), .threshold(let field, _, _)):
            shown = "\(rule.fieldName) \(AlertRule.valueText(value, field: field))"
        default:
            shown = "\(rule.fieldName) closed"
        }
        return "\(exchange) \(rule.symbol) \(shown) (rule \(rule.text))"
    }
}
