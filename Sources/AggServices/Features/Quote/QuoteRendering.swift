import AggCore
import AggJSON
import AggOptions
import FoundationEssentials

/// Quote output in the three formats.
package struct QuoteRendering: Rendering {
    var outcomes: [QuoteService.Outcome]
    /// Every quote's age and stale mark, at the time of the output.
    var aging: QuoteAging

    /// The quotes fetched this time, without stale ones.
    package var quotes: [Quote] {
        outcomes.compactMap { if case .success(let quote) = $0.result { quote } else { nil } }
    }

    /// Every quote shown, in order: the fetched ones, and the cached ones standing in for
    /// failures (with their stale mark).
    var shown: [(quote: Quote, stale: StaleQuote?)] {
        outcomes.compactMap { outcome in
            switch outcome.result {
            case .success(let quote): (quote, nil)
            case .failure: outcome.stale.map { ($0.quote, $0) }
            }
        }
    }

    /// The same document as `jsonLine()`, as a tree.
    package func json() -> JSONValue {
        // jsonLine() is the one definition of the shape; its numbers stay text when parsed.
        (try? JSONParser.parse(jsonLine())) ?? .null
    }

    package func jsonLine() -> String { jsonLine(time: nil) }

    package func writeJSON(to sink: any TextSink) { sink.write(utf8: jsonBytes(time: nil)) }

    /// `{"quotes":[...],"errors":[...]}` and a newline, after `"time"` when given (`agg watch`'s
    /// lines).
    package func jsonLine(time: Timestamp?) -> String { String(decoding: jsonBytes(time: time), as: UTF8.self) }

    /// `jsonLine(time:)` as UTF-8, written straight into one buffer.
    func jsonBytes(time: Timestamp?) -> [UInt8] {
        var json = JSONWriter(capacity: 340 * outcomes.count + 64)
        json.beginObject()
        if let time { json.member("time", time: time) }
        json.key("quotes")
        json.beginArray()
        for outcome in outcomes {
            switch outcome.result {
            case .success(let quote):
                JSONOutput.write(quote, aging: aging, sourceDown: outcome.sourceDown, to: &json)
            case .failure:
                if let stale = outcome.stale {
                    JSONOutput.write(stale.quote, aging: aging, sourceDown: true, to: &json)
                }
            }
        }
        json.endArray()
        json.key("errors")
        json.beginArray()
        // One entry a venue and error: the markets of a failed batch request share one.
        for group in FailureGroup.groups(outcomes) { json.value(group.json) }
        json.endArray()
        json.endObject()
        json.newline()
        return json.bytes
    }

    static let csvHeader =
        [
            "exchange", "symbol", "base", "quote", "last", "open", "high", "low", "previousClose", "change",
            "changePercent", "changeBasis", "baseVolume", "quoteVolume", "timestamp", "stale",
        ] + QuoteAging.csvHeader.filter { $0 != "stale" }

    /// Written field by field into one buffer, decimals without an intermediate `String`.
    package func csv() -> String {
        var csv = CSVWriter(header: Self.csvHeader, capacity: 170 * outcomes.count + 170)
        for outcome in outcomes {
            let quote: Quote
            switch outcome.result {
            case .success(let fetched): quote = fetched
            case .failure:
                guard let stale = outcome.stale else { continue }
                quote = stale.quote
            }
            csv.field(quote.exchange)
            csv.field(quote.market.description)
            csv.field(quote.market.base)
            csv.field(quote.market.quote)
            for value in [
                quote.last, quote.open, quote.high, quote.low, quote.previousClose, quote.change, quote.changePercent,
            ] {
                csv.field(value)
            }
            csv.field(quote.changeBasis?.rawValue ?? "")
            csv.field(quote.baseVolume)
            csv.field(quote.quoteVolume)
            csv.field(quote.timestamp?.description ?? "")
            let sourceDown = outcome.stale != nil || outcome.sourceDown
            let aged = aging.csvFields(quote, sourceDown: sourceDown)
            csv.field(aged[2])
            csv.field(aged[0])
            csv.field(aged[1])
            csv.endRow()
        }
        return csv.text
    }

    /// For `agg watch`: the quotes of the previous refresh by `QuoteRendering.key`. When set, LAST
    /// shows ▲ or ▼ for the move since then, and cells whose text changed are highlighted.
    package var previous: [String: Quote]? = nil

    /// The key of a row across refreshes.
    package static func key(_ exchange: String, _ market: Market) -> String {
        exchange + " " + market.description
    }

    /// Whether the percent column may be headed 24H: every row shown with a change measures it
    /// over a rolling 24 hours. Otherwise it is headed CHANGE % and a BASIS column says what
    /// each row's change is measured against, so that Upbit's change since 00:00 UTC is never
    /// read as a 24-hour change.
    var changeIsRolling24h: Bool {
        shown.allSatisfy { quote, _ in quote.changePercent == nil || quote.changeBasis == .rolling24h }
    }

    /// The BASIS cell of a quote.
    static func basisText(_ quote: Quote) -> String {
        guard quote.change != nil || quote.changePercent != nil else { return "-" }
        switch quote.changeBasis {
        case .rolling24h: return "rolling 24h"
        case .sinceUTCMidnight: return "since 00:00 UTC"
        case nil: return "-"
        }
    }

    /// The texts of a quote's cells after EXCHANGE and MARKET: last, 24H (or CHANGE % and
    /// BASIS, when `basis`), change, high, low, volume, updated.
    private static func texts(_ quote: Quote, basis: Bool) -> [String] {
        let percent = quote.changePercent
        let arrow = percent.map { $0 > 0 ? "▲ " : ($0 < 0 ? "▼ " : "  ") } ?? ""
        var texts = [
            DecimalFormatting.price(quote.last, currency: quote.market.quote),
            percent.map { arrow + DecimalFormatting.percent($0) } ?? "-",
            quote.change.map { DecimalFormatting.price($0, currency: quote.market.quote) } ?? "-",
            quote.high.map { DecimalFormatting.price($0, currency: quote.market.quote) } ?? "-",
            quote.low.map { DecimalFormatting.price($0, currency: quote.market.quote) } ?? "-",
            quote.baseVolume.map { DecimalFormatting.fixed($0, places: 2) } ?? "-",
            quote.timestamp.map(TableTime.text) ?? "-",
        ]
        if basis { texts.insert(basisText(quote), at: 2) }
        return texts
    }

    package func table(width: Int, style: TextStyle) -> String {
        // UPDATED goes first on a narrow terminal, unless it carries a stale mark.
        let anyStale = outcomes.contains { $0.stale != nil }
        let basis = !changeIsRolling24h
        var columns: [TextTable.Column] = [
            .init("EXCHANGE"), .init("MARKET"), .init("LAST", .right),
            .init(basis ? "CHANGE %" : "24H", .right, priority: 6),
        ]
        if basis { columns.append(.init("BASIS", priority: 6)) }
        columns += [
            .init("CHANGE", .right, priority: 2), .init("HIGH", .right, priority: 4),
            .init("LOW", .right, priority: 3),
            .init("VOLUME", .right, priority: 5), .init("UPDATED (UTC)", priority: anyStale ? 0 : 1),
            .init(QuoteAging.columnTitle, .right, priority: 7),
        ]
        var table = TextTable(columns: columns)
        /// `paints` with no paint for the BASIS cell, when there is one.
        func withBasis(_ paints: [(@Sendable (String) -> String)?]) -> [(@Sendable (String) -> String)?] {
            var paints = paints
            if basis { paints.insert(nil, at: 2) }
            return paints
        }
        for outcome in outcomes {
            if case .failure = outcome.result, let stale = outcome.stale {
                let quote = stale.quote
                var texts = Self.texts(quote, basis: basis)
                texts[texts.count - 1] = "stale, " + DurationText.ago(seconds: stale.ageSeconds)
                let percent = quote.changePercent
                let paints = withBasis([
                    nil, { [style] in style.signed($0, percent) }, nil, nil, nil, nil,
                    { [style] in style.warning($0) },
                ])
                table.append(
                    [.init(outcome.exchange), .init(outcome.market.description)]
                        + zip(texts, paints).map { TextTable.Cell($0.0, paint: $0.1) }
                        + [aging.cell(quote, sourceDown: true, style: style)])
                continue
            }
            switch outcome.result {
            case .success(let quote):
                let percent = quote.changePercent
                var texts = Self.texts(quote, basis: basis)
                var paints = withBasis([
                    nil, { [style] in style.signed($0, percent) }, nil, nil, nil, nil, nil,
                ])
                if let previous {
                    let old = previous[Self.key(outcome.exchange, outcome.market)]
                    let oldTexts = old.map { Self.texts($0, basis: basis) }
                    for index in texts.indices where oldTexts.map({ $0[index] != texts[index] }) ?? false {
                        let inner = paints[index]
                        paints[index] = { [style] in style.highlight(inner?($0) ?? $0) }
                    }
                    let move = old.map { quote.last - $0.last } ?? 0
                    let lastPaint = paints[0]
                    texts[0] = (move > 0 ? "▲ " : move < 0 ? "▼ " : "  ") + texts[0]
                    paints[0] = { [style] in style.signed(lastPaint?($0) ?? $0, move) }
                }
                table.append(
                    [.init(quote.exchange), .init(quote.market.description)]
                        + zip(texts, paints).map { TextTable.Cell($0.0, paint: $0.1) }
                        + [aging.cell(quote, sourceDown: outcome.sourceDown, style: style)])
            case .failure(let error):
                table.append([
                    .init(outcome.exchange), .init(outcome.market.description),
                    .init("failed", paint: { [style] in style.warning($0) }),
                    .init(error.kind == "notListed" ? "not listed" : error.kind),
                ])
            }
        }
        return table.render(width: width, style: style)
    }

    package init(outcomes: [QuoteService.Outcome], aging: QuoteAging, previous: [String: Quote]? = nil) {
        self.outcomes = outcomes
        self.aging = aging
        self.previous = previous
    }
}

/// Times in tables: UTC, to the second, without the `T` and `Z` noise.
package enum TableTime {
    package static func text(_ timestamp: Timestamp) -> String {
        // `2024-08-08T08:12:15Z` without its `Z`, the `T` a space.
        var bytes = Array(timestamp.iso8601Seconds.utf8)
        bytes.removeAll { $0 == UInt8(ascii: "Z") }
        for index in bytes.indices where bytes[index] == UInt8(ascii: "T") { bytes[index] = UInt8(ascii: " ") }
        return String(decoding: bytes, as: UTF8.self)
    }
}
