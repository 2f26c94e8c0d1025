import AggCore
import AggJSON
import AggTestKit
import Foundation

@testable import AggCLI
@testable import AggServices

/// What one in-process run of the CLI printed and returned.
struct CLIRun {
    var status: Int32
    var output: String
    var error: String

    /// Standard output parsed as JSON.
    func json() throws -> JSONCursor {
        JSONCursor(try JSONParser.parse(output))
    }

    /// Standard error's lines.
    var errorLines: [String] { error.split(separator: "\n").map(String.init) }
}

/// Runs the CLI in this process with `http` standing in for the network. `interrupts` stands in
/// for Ctrl-C (by default it never comes); `now`, when given, for the clock. Without an
/// `AGG_HOME` in `environment` the run gets a fresh one of its own, removed afterwards.
func runCLI(
    _ arguments: [String], environment: [String: String] = [:], http: (any HTTPClient)? = nil,
    terminal: Bool = false, width: Int = 200, registry: AdapterRegistry = testRegistry(),
    interrupts: AsyncStream<Void> = AsyncStream { _ in }, now: Timestamp? = nil,
    streams: (any WebSocketConnector)? = nil, streamClock: (any StreamClock)? = nil
) async -> CLIRun {
    let output = BufferSink()
    let error = BufferSink()
    let client: any HTTPClient =
        http
        ?? ScriptedHTTPClient { request in
            throw TransportError.connection(url: request.url, detail: "no network in this test")
        }
    var environment = environment
    var ownHome: String?
    if environment["AGG_HOME"] == nil {
        let home = FileManager.default.temporaryDirectory
            .appendingPathComponent("agg-cli-tests-\(UUID().uuidString)").path
        environment["AGG_HOME"] = home
        ownHome = home
    }
    defer { if let ownHome { try? FileManager.default.removeItem(atPath: ownHome) } }
    var context = CLIContext(
        registry: registry, environment: environment,
        console: Console(
            standardOutput: output, standardError: error, outputIsTerminal: terminal, errorIsTerminal: false,
            width: width),
        makeHTTPClient: { _ in client }, interrupts: { interrupts })
    if let now { context.now = { now } }
    if let streams { context.makeStreamConnector = { streams } }
    if let streamClock { context.makeStreamClock = { streamClock } }
    let status = await CLI.run(arguments, context: context)
    return CLIRun(status: status, output: output.text, error: error.text)
}
