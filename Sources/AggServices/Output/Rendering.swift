import AggCore
import AggJSON
import AggOptions

/// A command's answer in the three output formats. Commands build one and hand it to
/// `Output.write`, the one place that chooses the format and writes standard output.
package protocol Rendering {
    /// The table for a terminal `width` columns wide, coloured by `style`.
    func table(width: Int, style: TextStyle) -> String
    func json() -> JSONValue
    /// The JSON as text, with a final newline: `json().serialized()` and `"\n"`, unless a
    /// rendering writes it straight into one buffer (`agg quote`'s hundreds of quotes).
    func jsonLine() -> String
    /// Writes `jsonLine()` to `sink`: a rendering that writes its JSON into one buffer hands the
    /// bytes over, without making (and validating) a `String` of them.
    func writeJSON(to sink: any TextSink)
    func csv() -> String
    /// When set, what a table run prints on standard error instead of an empty table
    /// (`agg search` with no match).
    var emptyTableNotice: String? { get }
}

extension Rendering {
    package var emptyTableNotice: String? { nil }

    package func jsonLine() -> String { json().serialized() + "\n" }

    package func writeJSON(to sink: any TextSink) { sink.write(jsonLine()) }
}

/// Writes renderings to the console.
package enum Output {
    /// Writes `rendering` in `format`, with a newline, to standard output.
    package static func write(_ rendering: some Rendering, format: OutputFormat, style: TextStyle, console: Console) {
        if format == .json { return rendering.writeJSON(to: console.standardOutput) }
        console.standardOutput.write(text(rendering, format: format, style: style, console: console))
    }

    /// What `write` writes (empty for a table replaced by its notice, which goes to stderr).
    package static func text(_ rendering: some Rendering, format: OutputFormat, style: TextStyle, console: Console)
        -> String
    {
        switch format {
        case .json: return rendering.jsonLine()
        case .csv: return rendering.csv() + "\n"
        case .table:
            if let notice = rendering.emptyTableNotice {
                console.printError(notice)
                return ""
            }
            return rendering.table(width: console.width, style: style) + "\n"
        }
    }

    /// Writes `rendering` as the network options say (format and colour).
    package static func write(_ rendering: some Rendering, options: NetworkOptions, console: Console) {
        write(rendering, format: options.format, style: options.style, console: console)
    }
}
