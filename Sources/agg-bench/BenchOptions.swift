import AggCore
import AggOptions

/// agg-bench's command line, declared as agg's commands declare theirs (`CommandSpec`), so that
/// parsing, errors and `--help` are generated the same way.
struct BenchOptions {
    static let runs = Option(
        "runs", value: "N", help: "Repeat each measurement N times and report medians (default: 21).",
        parser: .wholeNumber(in: 1...10_000))
    static let only = Option(
        "only", value: "N[,N...]",
        help: "Run only these sections, by number (default: every one, 1 to \(BenchSection.allCases.count)).",
        parser: .list(
            of: ValueParser(expected: "a section number") { BenchSection(number: $0) == nil ? nil : $0 },
            expected: "section numbers from 1 to \(BenchSection.allCases.count), such as 3,5"),
        combine: +)
    static let agg = Option(
        "agg", value: "PATH",
        help: "Time this agg executable in sections 3 to 6 (default: the agg beside agg-bench).",
        parser: ValueParser(expected: "a path") { $0.isEmpty ? nil : $0 })
    static let recordTicks = Option(
        "record-ticks", value: "N", help: "Measured ticks of section 7 (default: 10000).",
        parser: .wholeNumber(in: 1...1_000_000))

    static let spec = CommandSpec(
        name: "agg-bench",
        summary: "Measure what agg's users feel, reporting medians over repeated runs.",
        arguments: "",
        options: [runs, only, agg, recordTicks],
        positionals: (0, 0),
        examples: [
            "agg-bench --runs 11",
            "agg-bench --runs 21 --only 3,5",
            "agg-bench --only 5 --agg /tmp/other-build/agg",
            "agg-bench --only 7 --record-ticks 1000",
        ],
        discussion: BenchSection.allCases.map { "\($0.rawValue). \($0.summary)" }.joined(separator: "\n"),
        program: "")

    var runs = 21
    var sections = Set(BenchSection.allCases)
    /// The agg executable sections 3 to 6 run; `nil` for the one beside agg-bench.
    var agg: String?
    var recordTicks = 10_000
    var wantsHelp = false

    /// The options of `arguments` (the command line after the program's name).
    init(_ arguments: [String]) throws(AggError) {
        let parsed = try ArgumentParser.parse(arguments, spec: Self.spec)
        wantsHelp = parsed.wantsHelp
        if let runs = parsed[Self.runs] { self.runs = runs }
        if let only = parsed[Self.only] { sections = Set(only.compactMap(BenchSection.init(number:))) }
        agg = parsed[Self.agg]
        if let ticks = parsed[Self.recordTicks] { recordTicks = ticks }
    }
}
