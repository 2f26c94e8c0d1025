import AggCore
import AggJSON
import AggUpbitShape

/// Bithumb's event sources, all on its v1 API, and their decoding.
///
/// - `markets`: `/v1/market/all?isDetails=true`, every market with `market_warning`
///   (`NONE` or `CAUTION`, 유의 종목): a `listed` fact per coin and a `warning` fact per warned coin
///   (`UpbitShapeMarketEvents`).
/// - `warnings`: `/v1/market/virtual_asset_warning` (경보제), one row per market and warning type:
///   a `caution` fact per coin and type, its detail the step and the end (KST, as Bithumb writes it).
///   A step that changes (CAUTION to WARNING) is the same caution, no event.
/// - `notices`: `/v1/notices?count=20`, the 20 newest notices: a `notice` fact each, its subject
///   the notice's `id` or, without one, its `pc_url`, its venue time `published_at` (KST). Bithumb
///   allows this endpoint one request a second per address.
/// - `transfers`: the generic source, from the classic API's transfer status.
enum BithumbEvents {
    /// Bithumb's `market` and `etc` groups allow 150 requests a second.
    static let listMinimum: Duration = .milliseconds(7)

    static let markets = EventSource(
        id: EventSource.markets, reader: .adapter, interval: EventSource.listInterval, minimumInterval: listMinimum,
        summary: "GET /v1/market/all?isDetails=true: listed per coin, warning when market_warning is CAUTION")
    static let warnings = EventSource(
        id: "warnings", reader: .adapter, interval: EventSource.listInterval, minimumInterval: listMinimum,
        summary: "GET /v1/market/virtual_asset_warning: caution per coin and warning type")
    static let notices = EventSource(
        id: "notices", reader: .adapter, interval: EventSource.noticeInterval, minimumInterval: .seconds(1),
        summary: "GET /v1/notices?count=20: a notice each (1 request a second per address)")

    /// Every source, in the order `agg record --events` lists them.
    static let sources = [markets, warnings, notices, EventSource.transferStatus(minimumInterval: listMinimum)]

    /// How many notices one request asks for (Bithumb's most).
    static let noticeCount = 20

    /// Bithumb's market codes in every quote currency of its lists.
    static let codes = UpbitShapeMarkets(quoteCurrencies: ["KRW", "BTC", "USDT"])

    static let marketDecoder = UpbitShapeMarketEvents(
        venue: BithumbAdapter.descriptor.id, markets: codes, flags: .marketWarning)

    /// The steps of `warning_step`.
    static let steps: Set<String> = ["CAUTION", "WARNING", "DANGER"]

    /// The facts of a `/v1/market/virtual_asset_warning` answer: a `caution` per coin and
    /// `warning_type`, detail `CAUTION until 2026-09-24 01:59:59 KST` (the step left out when the
    /// row has none, as in the older documentation). A row whose market, type, step or end does
    /// not read is skipped and makes its coin unread.
    static func warnings(_ json: JSONCursor, source: String, at time: Timestamp) throws(JSONDecodingError)
        -> EventObservation
    {
        let answer = try BulkAnswer<EventFact>.elements(
            of: json, venue: BithumbAdapter.descriptor.id, nameKey: "market",
            market: { codes.market(fromCode: (try? $0["market"].string()) ?? "") }
        ) { row throws(JSONDecodingError) in
            guard let market = try row["market"].market(codes.code) else { return nil }
            let typeField = row["warning_type"]
            let type = try typeField.string()
            guard !type.isEmpty, type.count <= 64,
                type.allSatisfy({ $0.isASCII && ($0.isUppercase || $0.isNumber || $0 == "_") })
            else { throw typeField.failure("expected an upper-case warning type, found '\(type.prefix(40))'") }
            let stepField = row["warning_step"]
            let step = try stepField.optionalString()
            if let step, !steps.contains(step) {
                throw stepField.failure(
                    "expected one of \(steps.sorted().joined(separator: ", ")), found '\(step.prefix(40))'")
            }
            let endField = row["end_date"]
            let end = try endField.string()
            guard kst(end) != nil else {
                throw endField.failure("expected 'yyyy-MM-dd HH:mm:ss' (KST), found '\(end.prefix(40))'")
            }
            return EventFact(
                condition: .caution, symbol: market.base, subject: type,
                detail: (step.map { "\($0) " } ?? "") + "until \(end) KST")
        }
        return EventObservation(
            venue: BithumbAdapter.descriptor.id, source: source, observedAt: time, facts: answer.values,
            skipped: answer.skipped, unread: Set(answer.skipped.compactMap { $0.market?.base }))
    }

    /// The facts of a `/v1/notices` answer, newest first: a `notice` each, subject its `id` (a
    /// string or a number) or else its `pc_url`, detail `title — pc_url`, venue time
    /// `published_at` (KST unless it names its offset). A notice without a title, a link or a
    /// readable time is skipped.
    static func notices(_ json: JSONCursor, source: String, at time: Timestamp) throws(JSONDecodingError)
        -> EventObservation
    {
        let answer = try BulkAnswer<EventFact>.elements(
            of: json, venue: BithumbAdapter.descriptor.id, nameKey: "title"
        ) { notice throws(JSONDecodingError) in
            let titleField = notice["title"]
            let title = try titleField.string()
            guard !title.isEmpty else { throw titleField.failure("empty title") }
            let url = try notice["pc_url"].string()
            let idField = notice["id"]
            let id = idField.isPresent ? try idField.text() : nil
            guard let subject = id ?? (url.isEmpty ? nil : url) else {
                throw notice["pc_url"].failure("no id and an empty pc_url: nothing tells the notice apart")
            }
            let publishedField = notice["published_at"]
            let published = try publishedField.string()
            guard let venueTime = kst(published) else {
                throw publishedField.failure("expected 'yyyy-MM-dd HH:mm:ss' (KST), found '\(published.prefix(40))'")
            }
            return EventFact(
                condition: .notice, symbol: nil, subject: subject,
                detail: title + (url.isEmpty ? "" : " — " + url), venueTime: venueTime)
        }
        return EventObservation(
            venue: BithumbAdapter.descriptor.id, source: source, observedAt: time, facts: answer.values,
            skipped: answer.skipped)
    }

    /// The instant of Bithumb's `2026-09-24 01:59:59` (KST; a `T` instead of the space, a
    /// fraction, or an explicit offset also read), or `nil`.
    static func kst(_ text: String) -> Timestamp? {
        if let instant = Timestamp(iso8601: text) { return instant }
        guard text.utf8.count >= 19 else { return nil }
        let date = text.prefix(10)
        let separator = text.dropFirst(10).prefix(1)
        guard separator == " " || separator == "T" else { return nil }
        return Timestamp(iso8601: date + "T" + text.dropFirst(11) + "+09:00")
    }
}
