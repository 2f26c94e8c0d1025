import AggCore
import AggOptions

/// `agg quote`'s output of a list of quotes, for callers outside the CLI such as the benchmark:
/// exactly what `agg quote` writes to standard output.
package struct QuoteOutput: Sendable {
    private let rendering: QuoteRendering

    /// The output of `quotes`, as fetched (no failure), aged at `now`.
    package init(_ quotes: [Quote], now: Timestamp) {
        rendering = QuoteRendering(
            outcomes: quotes.map {
                QuoteService.Outcome(exchange: $0.exchange, market: $0.market, result: .success($0))
            }, aging: QuoteAging(now: now))
    }

    /// The text in `format`; a table is `width` columns wide.
    package func text(format: OutputFormat, width: Int = 200, style: TextStyle = .plain) -> String {
        let console = Console(standardOutput: BufferSink(), standardError: BufferSink(), width: width)
        return Output.text(rendering, format: format, style: style, console: console)
    }

    /// The JSON `agg quote` writes to standard output, as the bytes it hands over.
    package func jsonBytes() -> [UInt8] { rendering.jsonBytes(time: nil) }
}
