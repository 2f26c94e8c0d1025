import AggCore
import AggOptions

/// What `agg history` asks for, checked: the coin, the venues, prices or premiums, the window
/// and whether it is charted (then on a table only). It asks no venue: the store answers.
package struct HistoryRequest: Sendable {
    var symbol: String
    /// Venue ids as registered, in the order given; empty for every venue.
    var exchanges: [String]
    var premium: Bool
    var since: Timestamp
    /// Just after `now`: the window holds what was recorded up to the run.
    var until: Timestamp
    package var chart: Bool
    package var format: OutputFormat

    package init(_ arguments: ParsedArguments, context: CLIContext) throws(AggError) {
        symbol = try AssetCode.validate(arguments.positionals.first ?? "")
        chart = arguments[HistoryCommand.chart]
        // --chart asks for a chart: only a format given on the command line conflicts with it,
        // not the implicit one (JSON in a pipe) nor the config file's.
        if chart, let explicit = arguments.flag(CommonOptions.format), explicit != .table {
            throw .usage("--chart draws on the terminal; it cannot be combined with --format \(explicit.rawValue)")
        }
        format = chart ? .table : OutputFormat.resolve(context.settings(arguments), console: context.console)
        var exchanges: [String] = []
        for id in arguments.flag(CommonOptions.exchange) ?? [] {
            exchanges.append(try context.registry.requireDescriptor(id: id).id)
        }
        self.exchanges = exchanges
        premium = arguments[HistoryCommand.premium]
        let now = context.now()
        since = arguments.value(HistoryCommand.since).start(now: now)
        until = Timestamp(millisecondsSince1970: now.millisecondsSince1970 + 1)
    }
}

extension HistoryService {
    /// The answer to `request`: one series per venue and market (or venue and basis), with
    /// their statistics.
    package func run(_ request: HistoryRequest) async throws(AggError) -> Report {
        try await report(
            symbol: request.symbol, exchanges: request.exchanges, premium: request.premium, since: request.since,
            until: request.until)
    }
}
