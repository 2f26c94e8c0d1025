import FoundationEssentials

/// How rules re-arm and how often they may fire.
public struct AlertSettings: Sendable, Equatable {
    /// The reset band as a percent of the threshold's magnitude: with 10, a `> 3%` rule re-arms
    /// once the premium is at or below 2.7%, a `< 3000000` rule once the price is at or above
    /// 3300000. 0 re-arms as soon as the condition is false.
    public var resetPercent: Decimal
    /// After a rule fires on a venue, a new crossing on that venue within this many seconds is
    /// not delivered (the rule still counts as having fired and must re-arm again).
    public var cooldownSeconds: Int64

    /// 10% of the threshold.
    public static let defaultResetPercent: Decimal = 10
    /// Five minutes.
    public static let defaultCooldownSeconds: Int64 = 300

    public init(resetPercent: Decimal = defaultResetPercent, cooldownSeconds: Int64 = defaultCooldownSeconds) {
        self.resetPercent = resetPercent
        self.cooldownSeconds = cooldownSeconds
    }
}

/// What one evaluation did.
public struct AlertEvaluation: Sendable, Equatable {
    /// The alerts to deliver, in rule order, then by venue id.
    public var alerts: [Alert]
    /// The states that changed, to be stored.
    public var changed: [AlertState]
    /// The crossings the cooldown held back: not delivered, but said (one line each) and counted
    /// into the next alert of the same rule and venue (`Alert.folded`).
    public var held: [Alert]

    public init(alerts: [Alert], changed: [AlertState], held: [Alert] = []) {
        self.alerts = alerts
        self.changed = changed
        self.held = held
    }
}

/// The alert rules' state machine: pure, with the clock passed in, so that `watch`, `premium
/// --watch` and `record` share it and tests drive it tick by tick.
///
/// Each rule has one state per venue (`AlertRule.key(venue:)`): armed (`active == false`) or
/// fired (`active == true`), and when it last fired. On a tick, for each venue that gave a
/// reading:
/// - armed, and the condition holds: the state becomes fired; the alert is delivered unless the
///   venue's last alert for the rule is less than the cooldown old; then the crossing is held
///   (`AlertEvaluation.held`) and counted into the next alert delivered for it;
/// - fired, and the reading is past the reset band (the condition does not hold even against the
///   threshold moved back by the band): the state is armed again;
/// - otherwise nothing changes. A venue without a reading (it failed this tick) changes nothing.
///
/// A state never seen is armed: a condition that already holds at the first reading fires.
public struct AlertEngine: Sendable {
    public let rules: [AlertRule]
    public let settings: AlertSettings
    /// Every known state by its key.
    public private(set) var states: [String: AlertState]
    /// The crossings held back by the cooldown since the last alert, by state key: how many, and
    /// when the first was. Kept for the run (a restarted recorder starts counting afresh).
    private var folds: [String: (count: Int, since: Timestamp)] = [:]

    /// An engine for `rules`, continuing from `states` (those stored by an earlier run).
    public init(rules: [AlertRule], settings: AlertSettings = AlertSettings(), states: [AlertState] = []) {
        self.rules = rules
        self.settings = settings
        self.states = Dictionary(states.map { ($0.rule, $0) }) { _, last in last }
    }

    /// Evaluates every rule against the tick's `observations` at `time`.
    public mutating func evaluate(_ observations: AlertObservations, at time: Timestamp) -> AlertEvaluation {
        var alerts: [Alert] = []
        var changed: [AlertState] = []
        var held: [Alert] = []
        // Two rules that name the same condition on the same venue (`BTC last > 1` and
        // `upbit:BTC last > 1`) are one state and one alert.
        var evaluated: Set<String> = []
        for rule in rules {
            for exchange in rule.venue.map({ [$0] }) ?? observations.exchanges(for: rule) {
                let key = rule.key(venue: exchange)
                guard evaluated.insert(key).inserted else { continue }
                guard let reading = Self.reading(rule, exchange: exchange, in: observations) else { continue }
                let before = states[key] ?? AlertState(rule: key, active: false, lastFired: nil)
                var state = before
                if state.active {
                    if rearms(rule, reading) { state.active = false }
                } else if holds(rule, reading) {
                    state.active = true
                    let cooling = state.lastFired.map {
                        time.millisecondsSince1970 - $0.millisecondsSince1970 < settings.cooldownSeconds * 1000
                    }
                    let alert = Alert(
                        time: time, rule: rule, exchange: exchange, reading: Self.alertReading(reading))
                    if cooling == true {
                        held.append(alert)
                        let fold = folds[key]
                        folds[key] = ((fold?.count ?? 0) + 1, fold?.since ?? time)
                    } else {
                        state.lastFired = time
                        var delivered = alert
                        if let fold = folds.removeValue(forKey: key) {
                            delivered.folded = fold.count
                            delivered.foldedSince = fold.since
                        }
                        alerts.append(delivered)
                    }
                }
                if state != before {
                    states[key] = state
                    changed.append(state)
                }
            }
        }
        return AlertEvaluation(alerts: alerts, changed: changed, held: held)
    }

    /// What a venue showed for a rule this tick.
    private enum Reading {
        case number(Decimal)
        case transfer(closed: Bool)
    }

    /// The reading of `rule` on `exchange`, or `nil` when there is none this tick.
    private static func reading(_ rule: AlertRule, exchange: String, in observations: AlertObservations)
        -> Reading?
    {
        switch rule.condition {
        case .threshold(let field, _, _):
            observations.value(of: field, exchange: exchange, symbol: rule.symbol).map(Reading.number)
        case .closed(let direction):
            observations.isClosed(direction, exchange: exchange, symbol: rule.symbol).map(Reading.transfer)
        case .event:
            // Event rules fire on events (`AlertRule.matches`), never on a tick's readings.
            nil
        }
    }

    /// Whether the condition holds for `reading`.
    private func holds(_ rule: AlertRule, _ reading: Reading) -> Bool {
        switch (rule.condition, reading) {
        case (.threshold(_, let comparison, let threshold), .number(let value)): comparison.holds(value, threshold)
        case (.closed, .transfer(let closed)): closed
        default: false
        }
    }

    /// Whether a fired state re-arms: the condition fails against the threshold moved back by
    /// the band (down for `>`/`>=`, up for `<`/`<=`); for a transfer rule, the way is open again.
    private func rearms(_ rule: AlertRule, _ reading: Reading) -> Bool {
        switch (rule.condition, reading) {
        case (.threshold(_, let comparison, let threshold), .number(let value)):
            let band = Self.band(threshold, percent: settings.resetPercent)
            return !comparison.holds(value, comparison.isUpward ? threshold - band : threshold + band)
        case (.closed, .transfer(let closed)):
            return !closed
        default:
            return false
        }
    }

    private static func alertReading(_ reading: Reading) -> Alert.Reading {
        switch reading {
        case .number(let value): .number(value)
        case .transfer: .closed
        }
    }

    /// |threshold| × percent / 100.
    static func band(_ threshold: Decimal, percent: Decimal) -> Decimal {
        (threshold < 0 ? -threshold : threshold) * percent / 100
    }
}
