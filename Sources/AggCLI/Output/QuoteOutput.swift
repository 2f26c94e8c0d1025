import AggCore

/// `agg quote`'s output of `quotes`, for callers outside the CLI such as the benchmark: exactly
/// what `agg quote` writes to standard output in `format` (a table `width` columns wide).
public enum QuoteOutput {
    public static func text(_ quotes: [Quote], format: OutputFormat, width: Int = 200, style: TextStyle = .plain)
        -> String
    {
        let rendering = QuoteRendering(
            outcomes: quotes.map {
                QuoteService.Outcome(exchange: $0.exchange, market: $0.market, result: .success($0))
            })
        let console = Console(standardOutput: BufferSink(), standardError: BufferSink(), width: width)
        return Output.text(rendering, format: format, style: style, console: console)
    }
}
