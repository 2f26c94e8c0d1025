import AggCore
import AggJSON

/// What a `--notify` destination is sent for one alert, whatever raised it (a price rule today,
/// a market event later): the JSON object a webhook receives, and the words and fields a chat
/// shows. Each destination's request is made from this alone (`NotifyRequests`).
package struct NotifyMessage: Sendable, Equatable {
    /// One name and value of a Discord embed.
    package struct Field: Sendable, Equatable {
        package var name: String
        package var value: String

        package init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The JSON object a webhook receives, on one line.
    package var json: String
    /// The alert in one line of words (a Telegram message, a Discord content line).
    package var text: String
    /// A Discord embed's title.
    package var title: String
    /// A Discord embed's fields.
    package var fields: [Field]
    /// A page about the alert (an exchange notice), shown after the text; `nil` for none.
    package var link: String?
    /// When it happened.
    package var time: Timestamp

    package init(json: String, text: String, title: String, fields: [Field], link: String?, time: Timestamp) {
        self.json = json
        self.text = text
        self.title = title
        self.fields = fields
        self.link = link
        self.time = time
    }

    /// The message of a rule's alert: the webhook gets the very object `--alert-log` writes
    /// with `"text"` (the words, after `prefix`) added at its end.
    package init(alert: Alert, prefix: String = "agg alert: ") {
        let text = prefix + alert.summary
        var writer = JSONWriter(capacity: 64)
        writer.string(text)
        // The alert's object without its closing brace, then one more member.
        let json = String(alert.json.dropLast()) + #","text":"# + writer.text + "}"
        var symbol = alert.rule.symbol
        if case .event(let event) = alert.reading { symbol = event.symbol ?? "-" }
        var fields = [
            Field(name: "exchange", value: alert.exchange), Field(name: "symbol", value: symbol),
            Field(name: alert.rule.fieldName, value: Self.shown(alert)),
        ]
        if let threshold = alert.rule.thresholdText { fields.append(Field(name: "threshold", value: threshold)) }
        if alert.folded > 0 { fields.append(Field(name: "folded", value: String(alert.folded))) }
        self.init(
            json: json, text: text, title: "\(alert.exchange) \(symbol): \(alert.rule.text)",
            fields: fields, link: nil, time: alert.time)
    }

    /// A sample alert for `agg alert test`: `upbit BTC last 1` on rule `upbit:BTC last > 0`,
    /// at `time`.
    package static func sample(at time: Timestamp) -> NotifyMessage {
        let rule = AlertRule(venue: "upbit", symbol: "BTC", condition: .threshold(.last, .above, 0))
        return NotifyMessage(
            alert: Alert(time: time, rule: rule, exchange: "upbit", reading: .number(1)), prefix: "agg alert test: ")
    }

    private static func shown(_ alert: Alert) -> String {
        switch (alert.reading, alert.rule.condition) {
        case (.number(let value), .threshold(let field, _, _)): AlertRule.valueText(value, field: field)
        case (.event(let event), _): event.detail.isEmpty ? AlertRule.eventWords(event.kind) : event.detail
        default: "closed"
        }
    }
}
