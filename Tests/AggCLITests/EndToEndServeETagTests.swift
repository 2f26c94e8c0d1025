import AggTestKit
import Foundation
import Testing

/// `If-None-Match` through the real `agg serve` binary (RFC 9110 §13.1.2, §8.8.3.2): a JSON
/// route's weak ETag comes from the snapshot generation; a request naming it (in any of the
/// forms a client may send) gets 304 with no body and the same ETag while the snapshot stands,
/// and 200 with a new ETag once a poll has published a new one.
@Suite("agg serve end to end: ETag and If-None-Match")
struct EndToEndServeETagTests {
    static let route = "/v1/quote?symbol=BTC&exchange=bithumb"

    /// A running server and its port.
    struct Server {
        var process: Process
        var port: Int
        var stderr: PipeText
    }

    /// Starts `agg serve` on bithumb and exchangerate, polling every `interval` seconds, and
    /// returns once the first poll is over: bithumb's tickers, exchangerate's table and bithumb's
    /// transfer list are three publications.
    func start(_ fixtures: FixtureServer, interval: Int) async throws -> Server {
        var environment = fixtures.environment
        environment["AGG_HOME"] = try temporaryDirectory().appendingPathComponent("home").path
        let (process, _, error) = try AggBinary.start(
            [
                "serve", "--no-stream", "--listen", "127.0.0.1:0", "--exchange", "bithumb", "--fx", "exchangerate",
                "--interval",
                String(interval),
            ],
            environment: environment)
        let stderr = PipeText(error)
        #expect(await stderr.wait(seconds: 30) { $0.contains("polling") })
        let line = stderr.value.split(separator: "\n").first.map(String.init) ?? ""
        let port = try #require(
            line.split(separator: ":").last.flatMap { Int($0.split(separator: ",").first ?? "") })
        var generation = 0
        for _ in 0..<1200 where generation < 3 {
            generation = await Self.generation(port: port)
            if generation < 3 { try await Task.sleep(for: .milliseconds(25)) }
        }
        #expect(generation >= 3)
        return Server(process: process, port: port, stderr: stderr)
    }

    /// The snapshot generation `/healthz` reports (0 before the first answer).
    static func generation(port: Int) async -> Int {
        guard let text = try? await RawHTTPClient.get(port: port, "/healthz").text,
            let range = text.range(of: #""generation":"#)
        else { return 0 }
        return Int(text[range.upperBound...].prefix { $0.isNumber }) ?? 0
    }

    @Test("a matching If-None-Match, in every form RFC 9110 allows, is 304 with no body and the same ETag")
    func notModified() async throws {
        let fixtures = try FixtureServer(venues: ["bithumb", "exchangerate"])
        defer { fixtures.stop() }
        // One poll an hour: the snapshot stands for the whole test.
        let server = try await start(fixtures, interval: 3600)
        defer { server.process.terminate() }
        let first = try await RawHTTPClient.get(port: server.port, Self.route)
        #expect(first.status == 200)
        #expect(first.text.contains(#""last":"80630000""#))
        let etag = try #require(first.header("etag"))
        #expect(etag.hasPrefix(#"W/""#) && etag.hasSuffix(#"-3""#), "\(etag)")
        let opaque = String(etag.dropFirst(2))
        let matching = [
            etag,  // the ETag as sent
            opaque,  // its strong form: If-None-Match compares weakly
            #""other", "# + etag,  // a list naming it
            #""a,b",W/"c","# + etag,  // a list whose first tag holds a comma
            "*",  // any current representation
        ]
        for value in matching {
            for method in ["GET", "HEAD"] {
                let answer = try await RawHTTPClient.get(
                    port: server.port, Self.route, headers: ["If-None-Match: \(value)"], method: method)
                #expect(answer.status == 304, "\(method) If-None-Match: \(value)")
                #expect(answer.body.isEmpty, "\(value)")
                #expect(answer.header("etag") == etag, "\(value)")
                #expect(answer.header("content-length") == nil, "\(value)")
            }
        }
        let different = [
            #"W/"other""#,  // another tag
            String(opaque.dropFirst().dropLast()),  // not quoted: no entity tag at all
            "w/" + opaque,  // 'W/' is case-sensitive
            #""other", "a,b""#,  // a list without it
        ]
        for value in different {
            let answer = try await RawHTTPClient.get(
                port: server.port, Self.route, headers: ["If-None-Match: \(value)"])
            #expect(answer.status == 200, "If-None-Match: \(value)")
            #expect(answer.body == first.body, "\(value)")
            #expect(answer.header("etag") == etag, "\(value)")
        }
        // A list may come as several field lines, which mean the lines joined by commas (RFC
        // 9110 §5.3): the tag on the second line matches.
        let split = try await RawHTTPClient.get(
            port: server.port, Self.route, headers: [#"If-None-Match: "other""#, "If-None-Match: \(etag)"])
        #expect(split.status == 304)
        #expect(split.body.isEmpty)
        #expect(split.header("etag") == etag)
        // Accept-Encoding is such a list too: gzip named on a second line is used. The 304 of a
        // body that may be compressed says so (Vary), as its 200 does.
        let exchanges = try await RawHTTPClient.get(
            port: server.port, "/v1/exchanges", headers: ["Accept-Encoding: br", "Accept-Encoding: gzip"])
        #expect(exchanges.status == 200)
        #expect(exchanges.header("content-encoding") == "gzip")
        #expect(exchanges.header("vary") == "Accept-Encoding")
        let exchangesTag = try #require(exchanges.header("etag"))
        let unchanged = try await RawHTTPClient.get(
            port: server.port, "/v1/exchanges", headers: ["If-None-Match: \(exchangesTag)"])
        #expect(unchanged.status == 304)
        #expect(unchanged.body.isEmpty)
        #expect(unchanged.header("vary") == "Accept-Encoding")
        // A route that answers an error has no representation to match: the error stands.
        let refused = try await RawHTTPClient.get(
            port: server.port, "/v1/quote?bogus=1", headers: ["If-None-Match: *"])
        #expect(refused.status == 400)
        #expect(refused.header("etag") == nil)
    }

    @Test("after the next poll publishes a new snapshot, the old ETag gets 200 and a new ETag")
    func changedAfterPoll() async throws {
        let fixtures = try FixtureServer(venues: ["bithumb", "exchangerate"])
        defer { fixtures.stop() }
        let server = try await start(fixtures, interval: 1)
        defer { server.process.terminate() }
        // The generation is read before the first answer: a poll may publish between the two,
        // and the ETag must then be compared with a generation no later than its own.
        let generation = await Self.generation(port: server.port)
        let first = try await RawHTTPClient.get(port: server.port, Self.route)
        #expect(first.status == 200)
        let etag = try #require(first.header("etag"))
        // Each poll publishes one snapshot per answer; wait for a generation past the one the
        // ETag names (a poll a second; a minute is sixty polls' worth on a loaded machine).
        var answer = first
        let deadline = Date().addingTimeInterval(60)
        repeat {
            answer = try await RawHTTPClient.get(port: server.port, Self.route, headers: ["If-None-Match: \(etag)"])
            if answer.status == 304 { try await Task.sleep(for: .milliseconds(50)) }
        } while answer.status == 304 && Date() < deadline
        #expect(answer.status == 200)
        #expect(answer.text.contains(#""last":"80630000""#))
        let newTag = try #require(answer.header("etag"))
        #expect(newTag != etag)
        #expect(await Self.generation(port: server.port) > generation)
        // The new ETag matches in turn, until the next poll.
        let again = try await RawHTTPClient.get(port: server.port, Self.route, headers: ["If-None-Match: \(newTag)"])
        #expect(again.status == 304 || again.header("etag") != newTag)
    }
}
