import AggTestKit
import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The `agg serve` binary: it starts, answers from its first poll, and stops cleanly on a stop
/// signal; beyond loopback it refuses to start without a token.
@Suite("agg serve end to end")
struct EndToEndServeTests {
    @Test("SIGTERM and SIGINT stop the server cleanly: exit 0, and the port is closed", arguments: [SIGTERM, SIGINT])
    func stopSignal(signal: Int32) async throws {
        let fixtures = try FixtureServer()
        defer { fixtures.stop() }
        var environment = fixtures.environment
        environment["AGG_HOME"] = try temporaryDirectory().appendingPathComponent("home").path
        let (process, _, error) = try AggBinary.start(
            [
                "serve", "--no-stream", "--listen", "127.0.0.1:0", "--exchange", "bithumb,binance", "--fx",
                "exchangerate",
            ],
            environment: environment)
        let stderr = PipeText(error)
        #expect(await stderr.wait(seconds: 10) { $0.contains("polling") })
        let line = stderr.value.split(separator: "\n").first.map(String.init) ?? ""
        let port = try #require(
            line.split(separator: ":").last.flatMap { Int($0.split(separator: ",").first ?? "") })
        #expect(line == "agg: serving on http://127.0.0.1:\(port), polling 3 sources every 5 s")
        var health = 0
        for _ in 0..<200 where health != 200 {
            health = (try? await RawHTTPClient.get(port: port, "/healthz").status) ?? 0
            if health != 200 { try await Task.sleep(for: .milliseconds(25)) }
        }
        #expect(health == 200)
        let quote = try await RawHTTPClient.get(port: port, "/v1/quote?symbol=BTC&exchange=bithumb")
        #expect(quote.text.contains(#""last":"80630000""#))
        kill(process.processIdentifier, signal)
        let status: Int32 = await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                process.waitUntilExit()
                continuation.resume(returning: process.terminationStatus)
            }
        }
        #expect(process.terminationReason == .exit)
        #expect(status == 0)
        #expect(await stderr.wait(seconds: 5) { $0.hasSuffix("agg: stopped\n") })
        await #expect(throws: RawHTTPClient.Failure.self) { try await RawHTTPClient.get(port: port, "/healthz") }
    }

    /// A hung venue (its poll in flight), an event stream open and a request half sent when
    /// SIGTERM comes: the request is answered once its head arrives, the stream ends with its
    /// last chunk, and the process exits 0 within the drain deadline.
    @Test("SIGTERM drains: a request in flight is answered, a stream ends cleanly, exit 0")
    func drainOnSIGTERM() async throws {
        let fixtures = try FixtureServer { venue, _ in
            venue == "bithumb" ? LoopbackReply.json("{}").withFault(.hang) : nil
        }
        defer { fixtures.stop() }
        var environment = fixtures.environment
        environment["AGG_HOME"] = try temporaryDirectory().appendingPathComponent("home").path
        let (process, _, error) = try AggBinary.start(
            [
                "serve", "--no-stream", "--listen", "127.0.0.1:0", "--exchange", "bithumb,binance", "--fx",
                "exchangerate",
                "--timeout", "60",
            ],
            environment: environment)
        let stderr = PipeText(error)
        #expect(await stderr.wait(seconds: 10) { $0.contains("polling") })
        let line = stderr.value.split(separator: "\n").first.map(String.init) ?? ""
        let port = try #require(
            line.split(separator: ":").last.flatMap { Int($0.split(separator: ",").first ?? "") })
        // The partial request first: the stream's answer then proves the server has accepted it
        // (connections are accepted in the order they were made). A connection still waiting to
        // be accepted when SIGTERM comes is refused, as any new one is.
        let partial = try await RawHTTPClient.openIdle(port: port, request: "GET /v1/exchanges HTTP/1.1\r\n")
        defer { close(partial) }
        let stream = try await RawHTTPClient.openStream(port: port, "/v1/stream")
        defer { close(stream.descriptor) }
        let signalled = Date()
        kill(process.processIdentifier, SIGTERM)
        // The drain has begun once new connections are refused.
        while (try? await RawHTTPClient.get(port: port, "/healthz")) != nil {
            try await Task.sleep(for: .milliseconds(10))
        }
        let answer = try await RawHTTPClient.finish(partial, with: Array("Host: a\r\n\r\n".utf8))
        #expect(answer.status == 200)
        #expect(answer.header("connection") == "close")
        #expect(answer.text.hasPrefix(#"[{"id":"#) || answer.text.hasPrefix("{"))
        let streamed = String(
            decoding: stream.received + (try await RawHTTPClient.readRest(stream.descriptor)), as: UTF8.self)
        #expect(streamed.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(streamed.hasSuffix("\r\n0\r\n\r\n"))
        let status: Int32 = await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                process.waitUntilExit()
                continuation.resume(returning: process.terminationStatus)
            }
        }
        #expect(process.terminationReason == .exit)
        #expect(status == 0)
        // The hung venue does not hold the exit beyond the drain deadline (5 s), however long
        // --timeout would let it run.
        #expect(Date().timeIntervalSince(signalled) < 15)
        #expect(await stderr.wait(seconds: 5) { $0.hasSuffix("agg: stopped\n") })
    }

    @Test("beyond loopback without a token: exit 64 and one line, before listening")
    func refusesWithoutToken() async throws {
        let run = try await AggBinary.run(["serve", "--listen", "0.0.0.0:0"], environment: ["AGG_TOKEN": ""])
        #expect(run.status == 64)
        #expect(
            run.error
                == "agg: listening on 0.0.0.0:0 beyond loopback needs a token: --token-file, AGG_TOKEN or --token\n")
        #expect(run.output.isEmpty)
    }

    @Test("--token-file: the token is required, read from the file, and --token warns that ps shows it")
    func tokenFile() async throws {
        let fixtures = try FixtureServer()
        defer { fixtures.stop() }
        let home = try temporaryDirectory()
        let path = home.appendingPathComponent("token").path
        let token = "file-token-0123456789abcdef"
        try (token + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        var environment = fixtures.environment
        environment["AGG_HOME"] = home.appendingPathComponent("home").path
        let (process, _, error) = try AggBinary.start(
            [
                "serve", "--no-stream", "--listen", "127.0.0.1:0", "--exchange", "bithumb", "--fx", "exchangerate",
                "--token-file",
                path,
            ],
            environment: environment)
        defer { process.terminate() }
        let stderr = PipeText(error)
        #expect(await stderr.wait(seconds: 10) { $0.contains("polling") })
        #expect(!stderr.value.contains("warning"))
        let line = stderr.value.split(separator: "\n").first.map(String.init) ?? ""
        let port = try #require(
            line.split(separator: ":").last.flatMap { Int($0.split(separator: ",").first ?? "") })
        #expect(try await RawHTTPClient.get(port: port, "/v1/exchanges").status == 401)
        let allowed = try await RawHTTPClient.get(
            port: port, "/v1/exchanges", headers: ["Authorization: Bearer \(token)"])
        #expect(allowed.status == 200)
    }

    @Test("AGG_TOKEN is checked as --token is, without echoing it")
    func environmentToken() async throws {
        let run = try await AggBinary.run(
            ["serve", "--listen", "0.0.0.0:0"], environment: ["AGG_TOKEN": "a secret with spaces in it"])
        #expect(run.status == 64)
        #expect(
            run.error
                == "agg: invalid AGG_TOKEN: expected a token of 16 to 256 printable characters (the value is not shown)\n"
        )
    }

    @Test("a short token is refused")
    func shortToken() async throws {
        let run = try await AggBinary.run(["serve", "--listen", "0.0.0.0:0", "--token", "short"])
        #expect(run.status == 64)
        #expect(
            run.error
                == "agg: invalid --token: expected a token of 16 to 256 printable characters (the value is not shown)\n"
        )
    }
}
