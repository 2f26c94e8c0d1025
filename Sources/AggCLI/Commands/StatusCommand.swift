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
        let run = try NetworkRun(arguments, context: context)
        let request = try StatusRequest(arguments, options: run.options, registry: context.registry)
        try run.announce(request.venues.map(\.id))
        let report = await TransferStatusService(factory: run.factory, now: context.now).run(request)
        if !report.rows.isEmpty || run.options.format == .json { run.write(TransferStatusRendering(report: report)) }
        // One line a failure on stderr in every format, as every command does; JSON also has them.
        return run.report(report.errors.map { "agg: \($0.description)" }, failed: !report.errors.isEmpty)
    }
}
