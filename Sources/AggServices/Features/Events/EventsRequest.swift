import AggCore
import AggOptions

/// What `agg events` asks for, checked: the window, kinds, venues and coins. It asks no venue:
/// the store answers.
package struct EventsRequest: Sendable {
    package var query: EventQuery
    package var format: OutputFormat

    package init(query: EventQuery, format: OutputFormat) {
        self.query = query
        self.format = format
    }

    /// - Throws: a usage error for a bad coin or an unknown venue (an unknown `--kind` is refused
    ///   when the command line is parsed).
    package init(_ arguments: ParsedArguments, context: CLIContext) throws(AggError) {
        var symbols: [String] = []
        for text in arguments.positionals { symbols.append(try AssetCode.validate(text)) }
        var venues: [String] = []
        for id in arguments.flag(CommonOptions.exchange) ?? [] {
            venues.append(try context.registry.requireDescriptor(id: id).id)
        }
        let now = context.now()
        query = EventQuery(
            since: arguments.value(EventsCommand.since).start(now: now),
            until: Timestamp(millisecondsSince1970: now.millisecondsSince1970 + 1),
            kinds: Set(arguments[EventsCommand.kind] ?? []), venues: venues, symbols: symbols)
        format = OutputFormat.resolve(context.settings(arguments), console: context.console)
    }
}
