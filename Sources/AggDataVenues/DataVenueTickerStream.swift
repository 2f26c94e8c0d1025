import AggCore
import AggJSON

/// The ticker stream of a venue described by data: its file's `stream` declaration read as a
/// `TickerStreamCodec`.
///
/// A frame is read in this order: a message whose text starts with a reply rule's prefix is
/// answered (`.reply`); anything else must be a JSON object; one with an error code at
/// `errors.code` is a refusal; one matching a `tickers` frame gives a quote per ticker whose
/// symbol is a market agg asks the venue for (a ticker that does not decode is skipped, and
/// costs no other); every other frame is control. With `scope` `all` the frames carry every
/// pair of the venue: the runner keeps the markets it subscribed.
public struct DataVenueTickerStream: TickerStreamCodec {
    public let definition: DataVenueDefinition
    public let stream: DataVenueStream

    /// The codec of `definition`, or `nil` when it declares no stream.
    public init?(definition: DataVenueDefinition) {
        guard let stream = definition.stream else { return nil }
        self.definition = definition
        self.stream = stream
    }

    public func subscribeMessages(for markets: [Market]) -> [StreamMessage] {
        switch stream.scope {
        case .all:
            return markets.isEmpty ? [] : [.text(stream.subscribe)]
        case .market:
            // Codes are validated asset codes (letters and digits): nothing needs escaping.
            return markets.map { market in
                .text(
                    stream.subscribe.replacingPlaceholder("{symbol}", with: definition.symbol.symbol(for: market))
                        .replacingPlaceholder("{base}", with: definition.symbol.cased(market.base))
                        .replacingPlaceholder("{quote}", with: definition.symbol.cased(market.quote)))
            }
        }
    }

    public func read(_ message: StreamMessage, receivedAt: Timestamp) -> StreamReading {
        if let reply = reply(to: message) { return .reply(reply) }
        do throws(JSONDecodingError) {
            let root = try message.jsonObject()
            if let codePath = stream.errorCode, case let code = codePath.read(root), code.isPresent {
                return .refused(
                    code: (try? code.text()) ?? "",
                    message: stream.errorMessage.flatMap { try? $0.read(root).text() } ?? "")
            }
            guard let frame = stream.tickers.first(where: { (try? $0.when.read(root).text()) == $0.equals }) else {
                return .control
            }
            var answer = try quotes(frame.items.read(root), symbol: frame.symbol)
            for index in answer.values.indices { answer.values[index].receivedAt = receivedAt }
            return .quotes(answer.values, skipped: answer.skipped)
        } catch {
            return .malformed(error.description)
        }
    }

    /// The answer to `message` when a reply rule's prefix starts it.
    private func reply(to message: StreamMessage) -> StreamMessage? {
        let bytes = message.bytes
        for rule in stream.replies where bytes.starts(with: rule.prefix.utf8) {
            return .text(rule.reply + String(decoding: bytes.dropFirst(rule.prefix.utf8.count), as: UTF8.self))
        }
        return nil
    }

    /// The tickers at `list`, each on its own; those whose symbol is not a market agg asks the
    /// venue for (another quote currency, a code agg cannot read) are left out unreported.
    private func quotes(_ list: JSONCursor, symbol: DataPath?) throws(JSONDecodingError) -> BulkAnswer<Quote> {
        let venue = definition.descriptor.id
        let quotes = definition.descriptor.quoteCurrencies
        let format = definition.symbol
        let stream = stream
        let definition = definition
        return .decoding(
            try DataVenueAdapter.items(list, symbol: symbol), venue: venue, name: { $0.name },
            market: { entry in (try? entry.symbol()).flatMap { format.market(from: $0, quotes: quotes) } }
        ) { entry throws(JSONDecodingError) in
            guard let market = format.market(from: try entry.symbol(), quotes: quotes) else { return nil }
            return try definition.quote(
                entry.item, fields: stream.fields, market: market, time: stream.time, changeBasis: stream.changeBasis)
        }
    }
}
