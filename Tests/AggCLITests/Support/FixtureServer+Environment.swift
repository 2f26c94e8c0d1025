import AggTestKit
import Foundation

extension FixtureServer {
    /// What an end-to-end run of the binary starts from: the server's URLs, a private home and
    /// config folder (no config file in it), no colour, and `extra` over them.
    func privateEnvironment(_ extra: [String: String] = [:]) throws -> [String: String] {
        var environment = self.environment
        let directory = try temporaryDirectory()
        environment["AGG_HOME"] = directory.appendingPathComponent("home").path
        environment["XDG_CONFIG_HOME"] = directory.path
        environment["NO_COLOR"] = "1"
        environment.merge(extra) { _, new in new }
        return environment
    }
}
