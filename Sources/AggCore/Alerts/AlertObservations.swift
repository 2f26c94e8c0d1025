import FoundationEssentials

/// The values one tick saw, for the alert rules to be evaluated against: numbers per venue,
/// coin and field, and transfer states per venue, coin and direction. What is missing (a venue
/// failed, a coin is not listed, a status is unknown) leaves the rules about it as they were.
public struct AlertObservations: Sendable, Equatable {
    /// One venue's one value of one coin.
    struct Subject: Hashable, Sendable {
        var exchange: String
        var symbol: String
        var field: String
    }

    private var numbers: [Subject: Decimal] = [:]
    private var closed: [Subject: Bool] = [:]
    /// The venues with a reading, by coin and field: a rule without a venue looks up its venues
    /// here instead of scanning every reading.
    private var venues: [Topic: Set<String>] = [:]

    /// A coin's field, on any venue.
    struct Topic: Hashable, Sendable {
        var symbol: String
        var field: String
    }

    public init() {}

    /// Records `value` of `field` for `symbol` on `exchange`. The first value recorded for the
    /// same venue, coin and field wins (a venue watched in two quote currencies: the first
    /// market asked).
    public mutating func record(_ value: Decimal, field: AlertRule.Field, exchange: String, symbol: String) {
        let subject = Subject(exchange: exchange, symbol: symbol, field: field.rawValue)
        guard numbers[subject] == nil else { return }
        numbers[subject] = value
        venues[Topic(symbol: symbol, field: field.rawValue), default: []].insert(exchange)
    }

    /// Records whether `direction` is open or closed for `symbol` on `exchange`; `unknown` is
    /// not recorded (it says nothing).
    public mutating func record(
        _ state: TransferState, direction: AlertRule.Direction, exchange: String, symbol: String
    ) {
        guard state != .unknown else { return }
        let subject = Subject(exchange: exchange, symbol: symbol, field: direction.rawValue)
        guard closed[subject] == nil else { return }
        closed[subject] = state == .closed
        venues[Topic(symbol: symbol, field: direction.rawValue), default: []].insert(exchange)
    }

    /// Records every direction of each coin in `rows` (one row per network): closed when every
    /// network of the coin is closed that way, open when one is open, else nothing.
    public mutating func record(transfers rows: [TransferStatus]) {
        var groups: [String: [TransferStatus]] = [:]
        var order: [String] = []
        for row in rows {
            let key = row.exchange + "\u{0}" + row.coin
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(row)
        }
        for key in order {
            guard let group = groups[key], let first = group.first else { continue }
            for direction in AlertRule.Direction.allCases {
                let states = group.map { direction == .withdraw ? $0.withdraw : $0.deposit }
                let state: TransferState =
                    states.allSatisfy { $0 == .closed } ? .closed : states.contains(.open) ? .open : .unknown
                record(state, direction: direction, exchange: first.exchange, symbol: first.coin)
            }
        }
    }

    /// The number recorded for the subject, if any.
    public func value(of field: AlertRule.Field, exchange: String, symbol: String) -> Decimal? {
        numbers[Subject(exchange: exchange, symbol: symbol, field: field.rawValue)]
    }

    /// Whether the direction is closed (`true`), open (`false`), or unknown this tick (`nil`).
    public func isClosed(_ direction: AlertRule.Direction, exchange: String, symbol: String) -> Bool? {
        closed[Subject(exchange: exchange, symbol: symbol, field: direction.rawValue)]
    }

    /// The venues with a reading for `rule`'s coin and field, by id.
    func exchanges(for rule: AlertRule) -> [String] {
        (venues[Topic(symbol: rule.symbol, field: rule.fieldName)] ?? []).sorted()
    }
}
