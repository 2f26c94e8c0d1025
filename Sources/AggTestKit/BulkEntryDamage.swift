import AggCore
import AggJSON
import FoundationEssentials

/// Rules 1 to 3 of issue 20 as data: `Fixtures/<venue>/bulk-entries.json` says what a venue's
/// recorded bulk answer (its market list, its rate table) gives whole, and what breaking one value
/// of one entry costs: that entry only.
///
/// ```json
/// {"venue": "korbit",
///  "marketList": {"file": "currencyPairs.json", "quotedIn": null, "entry": ["data", 2], "market": "XRP/KRW",
///    "count": 200, "listings": {"2": {"exchange": "korbit", "market": "XRP/KRW", "symbol": "xrp_krw"}},
///    "damage": [{"key": "symbol", "entry": "[2]", "reason": "expected a string, found nothing"},
///               {"key": "status", "value": false, "entry": "xrp_krw", "market": "XRP/KRW", "reason": "..."}]},
///  "rateTable": {"file": "latest.json", "base": "USD", "code": "KRW", "at": ["rates", "KRW"], "count": 31,
///    "rates": {"KRW": "1373.59"}, "asOf": "2024-08-07T14:00:00.000Z", "nextUpdate": null, "time": ["date"],
///    "timeDamage": [{"value": "2100-01-01", "detail": "2100-01-01T15:00:00.000Z is more than a day in the future"}],
///    "damage": [{"value": 0, "text": "0", "reason": "an exchange rate must be above zero"}]}}
/// ```
///
/// A market-list damage row replaces `key` of the entry at `entry` with `value` (removes it when
/// `value` is absent); the list must then hold every other listing of the whole list, exactly,
/// fail nothing, and report one skipped entry: its name (`entry`), its market when it could still
/// be read, its path (the entry's path and `.key`, or `path` when the row gives one) and its
/// reason. The whole list holds `count` listings: exactly `listings` when it is an array, those
/// at the indices an object names otherwise. A rate-table damage row replaces the rate at `at`:
/// `code` is refused with `text` and `reason`, every other rate and the table's time stand. With
/// `time` (the path of the table's time in the answer), each `timeDamage` value there fails the
/// table at that path with `detail`, and the table's time is bounded by the adapter's clock: with
/// the clock a day before `asOf` the table answers, a millisecond earlier it fails.
public struct BulkEntryDamage: Sendable {
    public let venue: String
    let document: JSONValue

    /// The venue's `bulk-entries.json`, or `nil` when it has none.
    public static func venue(_ id: String) throws -> BulkEntryDamage? {
        guard let bytes = try? Fixtures.bytes("\(id)/bulk-entries.json") else { return nil }
        let document = try JSONParser.parse(bytes)
        return BulkEntryDamage(venue: try JSONCursor(document)["venue"].string(), document: document)
    }

    /// Every case, run against adapters that `make` builds (a registration's factory) at
    /// `baseURL`, on a client answering each body: what was compared and what differed, each
    /// difference naming its case.
    public func check(baseURL: String, _ make: @escaping @Sendable (AdapterEnvironment) -> any VenueAdapter)
        async throws -> BulkEntryOutcome
    {
        var outcome = BulkEntryOutcome()
        let json = JSONCursor(document)
        let adapter: Factory = { client, now in
            make(AdapterEnvironment(baseURL: baseURL, http: client, now: now ?? { ValueBounds.systemNow() }))
        }
        if json["marketList"].isPresent {
            try await checkMarketList(json["marketList"], adapter, into: &outcome)
        }
        if json["rateTable"].isPresent {
            try await checkRateTable(json["rateTable"], adapter, into: &outcome)
        }
        return outcome
    }

    /// An adapter answering through a client, with the clock given or the system's.
    typealias Factory = @Sendable (any HTTPClient, (@Sendable () -> Timestamp)?) -> any VenueAdapter

    private func recorded(_ file: String, at path: [JSONDamage.Step] = [], with value: JSONValue? = nil) throws
        -> String
    {
        try JSONDamage.recorded("\(venue)/\(file)", at: path, with: value)
    }

    // MARK: Market lists

    private func checkMarketList(
        _ spec: JSONCursor, _ make: Factory, into outcome: inout BulkEntryOutcome
    ) async throws {
        let file = try spec["file"].string()
        let quotedIn = try spec["quotedIn"].optionalString()
        func list(_ body: String) async -> MarketList {
            await make(ScriptedHTTPClient(body: body), nil).marketList(quotedIn: quotedIn)
        }
        let entryPath = try Self.steps(spec["entry"])
        let market = try Self.market(spec["market"])
        let whole = await list(try recorded(file))
        outcome.expect("whole: failures", whole.failures, [])
        outcome.expect("whole: skipped", whole.skipped, [])
        outcome.expect("whole: count", whole.listings.count, Int(try spec["count"].int64()))
        let listings = spec["listings"]
        if case .array(let all)? = listings.value {
            outcome.compare("whole: listings", ModelValue.list(whole.listings.map(ModelValue.init)), .array(all))
        } else {
            for (key, listing) in try listings.members() {
                let index = Int(key) ?? -1
                let actual = whole.listings.indices.contains(index) ? ModelValue(whole.listings[index]) : .list([])
                outcome.compare("whole: listing [\(key)]", actual, listing.value ?? .null)
            }
        }
        let others = whole.listings.filter { $0.market != market }
        for row in try spec["damage"].elements() {
            let key = try row["key"].string()
            let damaged = await list(try recorded(file, at: entryPath + [.key(key)], with: row["value"].value))
            let name = "\(key) = \(row["value"].value?.serialized() ?? "(removed)")"
            outcome.expect("\(name): failures", damaged.failures, [])
            outcome.expect("\(name): listings", damaged.listings, others)
            outcome.expect("\(name): count", damaged.listings.count, whole.listings.count - 1)
            let path = try row["path"].optionalString() ?? Self.reportedPath(entryPath + [.key(key)])
            let skipped = SkippedEntry(
                venue: venue, entry: try row["entry"].string(),
                market: row["market"].isPresent ? try Self.market(row["market"]) : nil, path: path,
                reason: try row["reason"].string())
            outcome.expect("\(name): skipped", damaged.skipped, [skipped])
        }
    }

    // MARK: Rate tables

    private func checkRateTable(
        _ spec: JSONCursor, _ make: Factory, into outcome: inout BulkEntryOutcome
    ) async throws {
        let file = try spec["file"].string()
        let base = try spec["base"].string()
        func table(_ body: String, now: (@Sendable () -> Timestamp)? = nil) async throws -> RateTable {
            try await make(ScriptedHTTPClient(body: body), now).rates(base: base)
        }
        let code = try spec["code"].string()
        let ratePath = try Self.steps(spec["at"])
        let asOf = try spec["asOf"].string()
        let whole = try await table(try recorded(file))
        outcome.expect("whole: count", whole.rates.count, Int(try spec["count"].int64()))
        outcome.expect("whole: refused", whole.refused, [])
        for (currency, rate) in try spec["rates"].members() {
            outcome.expect("whole: rate \(currency)", whole.rates[currency], try rate.decimal())
        }
        outcome.expect("whole: asOf", whole.asOf.description, asOf)
        outcome.expect("whole: nextUpdate", whole.nextUpdate?.description, try spec["nextUpdate"].optionalString())
        var others = whole.rates
        others[code] = nil
        for row in try spec["damage"].elements() {
            let value = row["value"].value ?? .null
            let damaged = try await table(try recorded(file, at: ratePath, with: value))
            let name = "\(code) = \(value.serialized())"
            let text = try row["text"].string()
            let reason = try row["reason"].string()
            outcome.expect("\(name): rates", damaged.rates, others)
            outcome.expect("\(name): refused", damaged.refused, [RateRefusal(code: code, text: text, reason: reason)])
            outcome.expect(
                "\(name): refusal", damaged.refused.map(\.description), ["\(code) rate \(text) refused: \(reason)"])
            outcome.expect("\(name): asOf", damaged.asOf.description, asOf)
        }
        // The table's time (at `time`) is bounded: each `timeDamage` value fails the table at its
        // path, and so does the recorded time under the adapter's clock set a day and a
        // millisecond before it, while a day before passes.
        guard spec["time"].isPresent else { return }
        let timeSteps = try Self.steps(spec["time"])
        let timePath = Self.reportedPath(timeSteps)
        func error(_ body: String, now: (@Sendable () -> Timestamp)? = nil) async throws -> AggError? {
            do {
                _ = try await table(body, now: now)
                return nil
            } catch let thrown as AggError {
                return thrown
            }
        }
        for row in try spec["timeDamage"].elements() {
            let value = row["value"].value ?? .null
            outcome.expect(
                "time = \(value.serialized()): error", try await error(try recorded(file, at: timeSteps, with: value)),
                AggError.decoding(venue: venue, path: timePath, detail: try row["detail"].string()))
        }
        let dayBefore = Timestamp(millisecondsSince1970: whole.asOf.millisecondsSince1970 - 86_400_000)
        outcome.expect(
            "clock a day before: asOf", try await table(try recorded(file), now: { dayBefore }).asOf, whole.asOf)
        let past = Timestamp(millisecondsSince1970: dayBefore.millisecondsSince1970 - 1)
        outcome.expect(
            "clock a day and 1 ms before: error", try await error(try recorded(file), now: { past }),
            AggError.decoding(venue: venue, path: timePath, detail: "\(asOf) is more than a day in the future"))
    }

    // MARK: Reading the data

    /// `["data", 2]`: the path `$.data[2]`.
    static func steps(_ json: JSONCursor) throws -> [JSONDamage.Step] {
        try json.elements().map { step throws(JSONDecodingError) in
            if case .number = step.value { return .index(Int(try step.int64())) }
            return .key(try step.string())
        }
    }

    /// `"XRP/KRW"`.
    static func market(_ json: JSONCursor) throws -> Market {
        let parts = try json.string().split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2 else { throw json.failure("expected a market written BASE/QUOTE") }
        return Market(base: String(parts[0]), quote: String(parts[1]))
    }

    /// The path as the decoders report it: `$.data[2].symbol`.
    static func reportedPath(_ steps: [JSONDamage.Step]) -> String {
        "$"
            + steps.map {
                switch $0 {
                case .key(let key): ".\(key)"
                case .index(let index): "[\(index)]"
                }
            }.joined()
    }
}

/// What a bulk-entry check found: how many values it compared, and each one that differed.
///
/// The test kit does not import Testing: a suite expects `mismatches` to be empty and `checked`
/// to be the number of values its data states, so that a run that compared nothing fails.
public struct BulkEntryOutcome: Sendable, Equatable {
    /// How many values were compared.
    public var checked = 0
    /// One line per value that differed: which, what was expected, what came.
    public var mismatches: [String] = []

    public init() {}

    mutating func expect<Value: Equatable>(_ what: String, _ actual: Value, _ expected: Value) {
        checked += 1
        if actual != expected { mismatches.append("\(what): expected \(expected), got \(actual)") }
    }

    mutating func compare(_ what: String, _ actual: ModelValue, _ expected: JSONValue) {
        checked += 1
        mismatches += actual.mismatches(expected).map { "\(what): \($0)" }
    }
}
