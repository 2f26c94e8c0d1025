// The agg executable: the standard venues (AggVenues) and the real transport, wired to the CLI.
import AggCLI
import AggCore
import AggDataVenues
import AggVenues
import CMalloc
import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

// One malloc arena for every thread, and large blocks from the heap rather than fresh mappings.
// Answers are decoded on the cooperative pool's threads and written out on another; with an
// arena per thread and a mapping per large buffer, a market-wide `quote --all` touched about
// 190 more new pages (page faults, kernel time) of its 1,500 for memory already freed elsewhere.
// One quote is unchanged. agg's threads seldom allocate at the same moment, so sharing one
// arena costs no measurable waiting.
_ = mallopt(M_ARENA_MAX, 1)
_ = mallopt(M_MMAP_THRESHOLD, 4 << 20)
let environment = ProcessInfo.processInfo.environment
let context = {
    var context = CLIContext(
        registry: .standard,
        environment: environment,
        console: Console.standard(environment: environment),
        makeHTTPClient: { timeouts in makeTransport(timeouts: timeouts) }
    )
    context.shippedVenueFolders = [DataVenueDirectory.locate()]
    return context
}()
let status = await CLI.run(Array(CommandLine.arguments.dropFirst()), context: context)
exit(status)
