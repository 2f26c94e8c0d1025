import AggCore
import AggTestKit
import AggVenues
import Foundation
import Testing

/// Every adapter's decoders, fed damaged recordings of its own venue and random bytes through
/// every capability it declares: each call must end with a value or a typed `AggError` whose
/// description is one line. A trap or a hang fails the run.
@Suite("Decoder fuzzing")
struct DecoderFuzzTests {
    static let venues = AdapterRegistry.standard.descriptors.map(\.id).filter {
        FileManager.default.fileExists(atPath: Fixtures.directory.appendingPathComponent("\($0)/routes.json").path)
    }

    @Test("mutated fixtures and random bytes never trap", arguments: venues)
    func fuzz(venue: String) async throws {
        let registry = AdapterRegistry.standard
        let descriptor = try #require(registry.descriptor(id: venue))
        let routes = try Fixtures.routes(venue)
        let files = Array(Set(routes.routes.compactMap(\.file))).sorted()
        var random = SeededRandom(seed: 0xA66_0000 + UInt64(venue.utf8.reduce(0) { $0 &+ Int($1) }))
        var cases = 0
        var expected = 0
        var errors = 0
        for file in files {
            let body = try Fixtures.bytes("\(venue)/\(file)")
            // Large answers (Binance's 1 MB all-tickers list) get fewer mutations: each is parsed once
            // per capability, on the shared cooperative pool.
            let mutations = body.count > 500_000 ? 2 : body.count > 20_000 ? 12 : 60
            // A stream is no REST answer: its frames are fuzzed by `fuzzStream`.
            expected += mutations * descriptor.capabilities.subtracting([.stream]).count
            for _ in 0..<mutations {
                // The scripted client answers without suspending, so a venue's cases would hold a
                // thread of the two-thread cooperative pool for seconds and starve the timed tests.
                await Task.yield()
                let damaged = Mutator.mutate(body, using: &random)
                let client = ScriptedHTTPClient { request in
                    HTTPResponse(status: 200, headers: [], body: damaged, url: request.url)
                }
                let adapter = try registry.makeAdapter(
                    id: venue, environment: AdapterEnvironment(baseURL: "https://fuzz.test", http: client))
                for outcome in await Self.exercise(adapter, descriptor: descriptor) {
                    cases += 1
                    if let error = outcome {
                        errors += 1
                        #expect(!error.description.contains("\n"))
                        #expect(!error.isUsageError)
                    }
                }
            }
        }
        #expect(cases == expected)
        #expect(errors > 0)
    }

    /// Calls every declared capability once; `nil` for a value, the error otherwise.
    static func exercise(_ adapter: any VenueAdapter, descriptor: AdapterDescriptor) async -> [AggError?] {
        let interval = descriptor.limits.candleIntervals.first ?? .oneDay
        let market = Market(base: "BTC", quote: descriptor.homeCurrency)
        var outcomes: [AggError?] = []
        func record(_ body: () async throws(AggError) -> Void) async {
            do throws(AggError) {
                try await body()
                outcomes.append(nil)
            } catch {
                outcomes.append(error)
            }
        }
        for capability in descriptor.capabilities.sorted() {
            switch capability {
            case .ticker: await record { () async throws(AggError) in _ = try await adapter.quote(for: market) }
            case .allTickers:
                await record { () async throws(AggError) in
                    _ = try await adapter.allQuotes(quotedIn: descriptor.homeCurrency)
                }
            case .markets: await record { () async throws(AggError) in _ = try await adapter.markets() }
            case .candles:
                await record { () async throws(AggError) in
                    _ = try await adapter.candles(for: market, interval: interval, limit: 10)
                }
            case .trades:
                await record { () async throws(AggError) in _ = try await adapter.trades(for: market, limit: 10) }
            case .orderBook:
                await record { () async throws(AggError) in _ = try await adapter.orderBook(for: market, depth: 5) }
            case .fxRates: await record { () async throws(AggError) in _ = try await adapter.rates(base: "USD") }
            case .transferStatus:
                await record { () async throws(AggError) in _ = try await adapter.transferStatus(coins: [market.base]) }
            case .stream:
                // No REST answer to break: its frames are fuzzed by `fuzzStream`.
                break
            case .events:
                await record { () async throws(AggError) in
                    for source in descriptor.eventSources where source.reader == .adapter {
                        _ = try await adapter.events(from: source.id, at: Timestamp(secondsSince1970: 0))
                    }
                }
            }
        }
        return outcomes
    }

    static let streamVenues = AdapterRegistry.standard.descriptors.filter { $0.supports(.stream) }.map(\.id)

    @Test(
        "mutated stream frames never trap: each reads as quotes of the venue, or what does not decode says why",
        arguments: streamVenues)
    func fuzzStream(venue: String) async throws {
        let adapter = try AdapterRegistry.standard.makeAdapter(
            id: venue, environment: AdapterEnvironment(baseURL: "https://fuzz.test", http: ScriptedHTTPClient(body: ""))
        )
        let codec = try #require(adapter.tickerStream)
        let directory = Fixtures.directory.appendingPathComponent("\(venue)/stream")
        var frames: [StreamMessage] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        where name.hasSuffix(".jsonl") {
            for step in try WebSocketScript.load(directory.appendingPathComponent(name)).steps {
                guard case .send(let opcode, let data, _, _) = step else { continue }
                if opcode == .text { frames.append(.text(String(decoding: data, as: UTF8.self))) }
                if opcode == .binary { frames.append(.binary(data)) }
            }
        }
        #expect(!frames.isEmpty, "\(venue) declares a stream but has no frame scripts in Fixtures/\(venue)/stream")
        var random = SeededRandom(seed: 0x57E_0000 + UInt64(venue.utf8.reduce(0) { $0 &+ Int($1) }))
        let now = ValueBounds.systemNow()
        var broken = 0
        for frame in frames {
            // As above: leave the cooperative pool to the timed tests between frames.
            await Task.yield()
            for _ in 0..<100 {
                let damaged = Mutator.mutate(frame.bytes, using: &random)
                let message: StreamMessage =
                    if case .text = frame { .text(String(decoding: damaged, as: UTF8.self)) } else { .binary(damaged) }
                switch codec.read(message, receivedAt: now) {
                case .malformed(let reason):
                    broken += 1
                    #expect(!reason.isEmpty)
                case .quotes(let quotes, let skipped):
                    broken += skipped.count
                    #expect(quotes.allSatisfy { $0.exchange == venue && $0.receivedAt == now })
                    #expect(skipped.allSatisfy { !$0.reason.isEmpty })
                case .refused, .control, .reply: break
                }
            }
        }
        #expect(broken > 0)
    }
}
