extension CLIContext {
    /// Whether `AGG_DEBUG` (`1`, `true` or `yes`) asks for debug notes on stderr.
    package var debugNotes: Bool {
        ["1", "true", "yes"].contains(environment["AGG_DEBUG"] ?? "")
    }

    /// Writes `agg: debug: <note>` to stderr when `AGG_DEBUG` is set, and nothing otherwise:
    /// things worth knowing when chasing a problem that change nothing in a command's answer
    /// (a quote cache write skipped because another process held the database).
    package func debug(_ note: String?) {
        guard let note, debugNotes else { return }
        console.printError(Self.debugLine(note))
    }

    /// `agg: debug: <note>`, the line `debug(_:)` writes.
    package static func debugLine(_ note: String) -> String { "agg: debug: " + note }
}
