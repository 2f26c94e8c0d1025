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

// One malloc arena, large blocks from the heap: see CMalloc/shim.h.
agg_tune_malloc()
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
