import AggCore
import AggJSON

/// The market events of an Upbit-shaped `/v1/market/all?isDetails=true` answer (Upbit's, and
/// Bithumb's v1): which coins are listed, and which carry a warning or a caution.
///
/// Facts are per coin, not per market: a coin is listed while any of its markets is (one listed
/// only against BTC is listed), warned while any of its markets is, and cautioned for a cause
/// while any of its markets is. Each entry is read on its own: one that does not decode is
/// skipped, counted, and makes its coin unread (its earlier facts neither go nor come back).
public struct UpbitShapeMarketEvents: Sendable {
    /// The venue id.
    public var venue: String
    /// The venue's market codes, in every quote currency its list has.
    public var markets: UpbitShapeMarkets
    /// Where the venue writes its flags; each entry must have that member.
    public var flags: Flags

    /// Where an Upbit-shaped list writes each market's flags.
    public enum Flags: Sendable {
        /// Upbit since 2024-11-20: `market_event: {warning: Bool, caution: {CAUSE: Bool, ...}}`.
        case marketEvent
        /// Bithumb's v1: `market_warning: "NONE" | "CAUTION"`, no causes.
        case marketWarning
    }

    public init(venue: String, markets: UpbitShapeMarkets, flags: Flags) {
        self.venue = venue
        self.markets = markets
        self.flags = flags
    }

    /// The value of `market_warning` that means a warning; `NONE` means none.
    public static let warningValue = "CAUTION"

    /// What one entry says about its coin.
    struct Entry: Sendable {
        var coin: String
        var names: String
        var warning: Bool
        var causes: [String]
    }

    /// The facts of the answer at `json`, observed at `time` for the source `source`, in the
    /// answer's order of coins: `listed` (detail: `korean / english`), `warning` (detail: the
    /// names) when `market_event.warning` is true or `market_warning` is `CAUTION`, and one
    /// `caution` per true cause of `market_event.caution` (subject: the cause's code, detail: the
    /// coin's names).
    ///
    /// - Throws: when the answer is not an array or names no market (a venue's glitch, not every
    ///   coin delisted); a bad entry costs only itself.
    public func observation(_ json: JSONCursor, source: String, at time: Timestamp) throws(JSONDecodingError)
        -> EventObservation
    {
        let format = markets.code
        let answer = try BulkAnswer<Entry>.elements(
            of: json, venue: venue, nameKey: "market",
            market: { markets.market(fromCode: (try? $0["market"].string()) ?? "") }
        ) { entry throws(JSONDecodingError) in
            guard let market = try entry["market"].market(format) else { return nil }
            let (warning, causes) = try read(entry)
            return Entry(
                coin: market.base,
                names: GenericEventFacts.names(
                    korean: try entry["korean_name"].optionalString(),
                    english: try entry["english_name"].optionalString()),
                warning: warning, causes: causes)
        }
        // An empty list is a venue's glitch, not every coin delisted.
        if answer.values.isEmpty && answer.skipped.isEmpty { throw json.failure("the market list names no market") }
        var order: [String] = []
        var names: [String: String] = [:]
        var warned: Set<String> = []
        var causes: [String: [String]] = [:]
        for entry in answer.values {
            if names[entry.coin] == nil {
                order.append(entry.coin)
                names[entry.coin] = entry.names
            }
            if entry.warning { warned.insert(entry.coin) }
            for cause in entry.causes where causes[entry.coin, default: []].contains(cause) == false {
                causes[entry.coin, default: []].append(cause)
            }
        }
        var facts: [EventFact] = []
        for coin in order {
            let detail = names[coin] ?? ""
            facts.append(EventFact(condition: .listed, symbol: coin, detail: detail))
            if warned.contains(coin) { facts.append(EventFact(condition: .warning, symbol: coin, detail: detail)) }
            for cause in causes[coin] ?? [] {
                facts.append(EventFact(condition: .caution, symbol: coin, subject: cause, detail: detail))
            }
        }
        let unread = Set(answer.skipped.compactMap { $0.market?.base })
        return EventObservation(
            venue: venue, source: source, observedAt: time, facts: facts, skipped: answer.skipped, unread: unread)
    }

    /// The entry's warning and causes, from the member `flags` names (required: an entry without
    /// it says nothing about its flags, which is not every flag off).
    func read(_ entry: JSONCursor) throws(JSONDecodingError) -> (warning: Bool, causes: [String]) {
        switch flags {
        case .marketEvent:
            let event = entry["market_event"]
            let warning = try event["warning"].bool()
            var causes: [String] = []
            for member in try event["caution"].members() {
                if try member.value.bool() { causes.append(member.key) }
            }
            return (warning, causes)
        case .marketWarning:
            let field = entry["market_warning"]
            switch try field.string() {
            case "NONE": return (false, [])
            case Self.warningValue: return (true, [])
            case let value: throw field.failure("expected NONE or \(Self.warningValue), found '\(value.prefix(40))'")
            }
        }
    }
}
