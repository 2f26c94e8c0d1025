// The agg executable: the standard venues (AggVenues) and the real transport, wired to the CLI.
import AggCLI
import AggCore
import AggDataVenues
import AggServices
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
    context.makeStreamConnector = { makeStreamConnector() }
    return context
}()
await runAndExit(Array(CommandLine.arguments.dropFirst()), context: context)

/// Runs the command line and exits with its status on the thread that finishes it. Top-level code
/// runs on the main actor; returning there to call `exit` made dispatch start a thread for it
/// (the main thread waits in `dispatchMain`), at the end of every run.
nonisolated func runAndExit(_ arguments: [String], context: CLIContext) async -> Never {
    let status = await CLI.run(arguments, context: context)
    exit(status)
}
