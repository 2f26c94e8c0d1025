// The agg executable: the one place that knows every adapter and the real transport.
import AggCLI
import AggCore
import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

var registry = AdapterRegistry()
registerAdapters(in: &registry)

let environment = ProcessInfo.processInfo.environment
let context = CLIContext(
    registry: registry,
    environment: environment,
    console: Console.standard(environment: environment),
    makeHTTPClient: { timeouts in makeTransport(timeouts: timeouts) }
)
let status = await CLI.run(Array(CommandLine.arguments.dropFirst()), context: context)
exit(status)
