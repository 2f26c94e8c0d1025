// agg-bench: measures what users feel, reporting medians over repeated runs. One file per
// section (`BenchSection` lists them); the flags are declared in `BenchOptions` with agg's own
// `CommandSpec`, which also makes `--help`.
//
//   swift build -c release --static-swift-stdlib && .build/release/agg-bench --runs 21 --only 3,5
//
// docs/performance.md says what each section does and how the figures there were taken.
import AggCore
import AggServices
import AggVenues
import CMalloc
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

// The allocator agg itself runs with (section 7 measures agg record's loop in this process).
agg_tune_malloc()
let options: BenchOptions
do {
    options = try BenchOptions(Array(CommandLine.arguments.dropFirst()))
} catch {
    FileHandle.standardError.write(Data("agg-bench: \(error.description)\n".utf8))
    exit(ExitCode.usage.rawValue)
}
if options.wantsHelp {
    print(BenchOptions.spec.helpText(registry: .standard))
    exit(ExitCode.success.rawValue)
}
let bench = try Bench(options, executable: CommandLine.arguments[0])
for section in options.sections.sorted() {
    try await section.run(bench)
}
