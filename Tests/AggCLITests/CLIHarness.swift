import AggCLI
import AggCore
import AggJSON
import AggTestKit
import Bithumb
import ExchangeRate
import Foundation

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

/// The registry the executable builds.
func testRegistry() -> AdapterRegistry {
    var registry = AdapterRegistry()
    registry.register(BithumbAdapter.self)
    registry.register(ExchangeRateAdapter.self)
    return registry
}

/// Runs the CLI in this process with `http` standing in for the network.
func runCLI(
    _ arguments: [String], environment: [String: String] = [:], http: (any HTTPClient)? = nil,
    terminal: Bool = false, width: Int = 200
) async -> CLIRun {
    let output = BufferSink()
    let error = BufferSink()
    let client: any HTTPClient =
        http
        ?? ScriptedHTTPClient { request in
            throw TransportError.connection(url: request.url, detail: "no network in this test")
        }
    var environment = environment
    environment["AGG_HOME"] =
        environment["AGG_HOME"]
        ?? FileManager.default.temporaryDirectory
        .appendingPathComponent("agg-cli-tests-\(UUID().uuidString)").path
    let context = CLIContext(
        registry: testRegistry(), environment: environment,
        console: Console(
            standardOutput: output, standardError: error, outputIsTerminal: terminal, errorIsTerminal: false,
            width: width),
        makeHTTPClient: { _ in client })
    let status = await CLI.run(arguments, context: context)
    return CLIRun(status: status, output: output.text, error: error.text)
}
