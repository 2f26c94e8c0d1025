import AggCore

/// `agg status`: whether coins can be deposited and withdrawn, per venue and network.
public enum StatusCommand: Command {
    public static let spec = CommandSpec(
        name: "status",
        summary: "Show whether coins can be deposited and withdrawn on each venue, per network.",
        arguments: "SYMBOL...",
        options: [CommonOptions.exchange] + CommonOptions.network,
        positionals: (1, nil),
        examples: ["agg status BTC ETH", "agg status USDT --exchange bithumb --format json"],
        discussion: """
            Each venue that publishes it is asked once for its public list. DEPOSIT and WITHDRAW
            are open, closed or unknown; a venue that publishes no wallet status without an API key
            (Upbit) says unknown, with its market warnings as a note, rather than a guess. The
            withdrawal fee is shown where the venue publishes it.
            """,
        venueCapability: .transferStatus
    )

    public static func run(_ arguments: ParsedArguments, context: CLIContext) async throws(AggError)
        -> ExitCode
    {
        let options = try NetworkOptions(arguments, context: context)
        var coins: [String] = []
        for text in arguments.positionals {
            let coin = try AssetCode.validate(text)
            if !coins.contains(coin) { coins.append(coin) }
        }
        let venues = try TransferStatusService.venues(
            in: context.registry, named: options.exchanges.explicit ? options.exchanges.ids : [])
        let factory = AdapterFactory(context: context, options: options)
        try factory.announceOffline(venues: venues.map(\.id))
        let report = await TransferStatusService(factory: factory, now: context.now).run(coins: coins, venues: venues)
        if !report.rows.isEmpty || options.format == .json {
            Output.write(TransferStatusRendering(report: report), options: options, console: context.console)
        }
        // One line a failure on stderr in every format, as every command does; JSON also has them.
        for error in report.errors { context.console.printError("agg: \(error.description)") }
        return report.errors.isEmpty ? .success : .sourceFailed
    }
}
