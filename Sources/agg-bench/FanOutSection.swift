import AggCore
import AggTestKit
import AggTransport
import AggVenues
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Section 2: fan-out. 1, 4, 8 and 16 Bithumb adapters in process against a loopback server that
/// answers after 300 ms: the wall time of all of them over one round trip.
enum FanOutSection {
    static func run(_ bench: Bench) async throws {
        let runs = bench.runs
        let delay = 0.3
        let server = try FixtureServer(venues: ["bithumb"]) { _, request in
            guard let answer = try? Fixtures.routes("bithumb").answer(path: request.path, query: request.query) else {
                return nil
            }
            return LoopbackReply(status: answer.status, headers: answer.headers, body: answer.body, delay: delay)
        }
        let client = CurlHTTPClient()
        print(
            "\(BenchSection.fanOut.rawValue). Fan-out: every venue answers after \(Int(delay * 1000)) ms; median of \(min(runs, 7)) runs"
        )
        for venues in [1, 4, 8, 16] {
            var walls: [Double] = []
            for _ in 0..<min(runs, 7) {
                let start = DispatchTime.now().uptimeNanoseconds
                try await withThrowingTaskGroup(of: Quote.self) { group in
                    for _ in 0..<venues {
                        group.addTask {
                            let adapter = try AdapterRegistry.standard.makeAdapter(
                                id: "bithumb",
                                environment: AdapterEnvironment(baseURL: server.baseURL(for: "bithumb"), http: client))
                            return try await adapter.quote(for: Market(base: "BTC", quote: "KRW"))
                        }
                    }
                    for try await _ in group {}
                }
                walls.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
            }
            line(
                "   \(venues) venues",
                String(format: "%6.0f ms  wall / 300 ms = %.2f", median(walls) * 1000, median(walls) / delay))
        }
    }
}
