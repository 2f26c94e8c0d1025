import AggCore
import AggJSON
import AggTestKit
import AggTransport
import Foundation
import Synchronization
import Testing

@testable import AggServices

/// A clock that never waits: each sleep moves its time on and is recorded; chance is 0.5.
final class VirtualClock: Sendable {
    private let state = Mutex<(now: Double, sleeps: [Double])>((0, []))

    var sleeps: [Double] { state.withLock { $0.sleeps } }
    var now: Double { state.withLock { $0.now } }

    var clock: RetryClock {
        RetryClock(
            now: { [self] in state.withLock { $0.now } },
            sleep: { [self] seconds in
                try Task.checkCancellation()
                state.withLock {
                    $0.now += max(0, seconds)
                    $0.sleeps.append(seconds)
                }
                await Task.yield()
            },
            random: { 0.5 })
    }
}

/// Lines an outbox said.
final class SaidLines: Sendable {
    private let lines = Mutex<[String]>([])
    var all: [String] { lines.withLock { $0 } }
    var report: @Sendable (String) -> Void { { [self] line in lines.withLock { $0.append(line) } } }
}

private let start = Timestamp(millisecondsSince1970: 1_723_104_735_000)
private let token = "123456:ABC-secret-token"

private func message(_ number: Int = 1) -> NotifyMessage {
    NotifyMessage(
        alert: Alert(
            time: start, rule: AlertRule(venue: "upbit", symbol: "BTC", condition: .threshold(.last, .above, 1)),
            exchange: "upbit", reading: .number(Decimal(number))))
}

private func sender(_ clock: VirtualClock, wall: Date = Date(timeIntervalSince1970: 1_723_104_735)) -> NotifySender {
    NotifySender(http: CurlHTTPClient(), clock: clock.clock, wallClock: { wall }, secrets: [token])
}

/// A Telegram Bot API stand-in: `sendMessage` under the bot token, answering as the API does.
private func telegram(_ answers: [LoopbackReply]) throws -> LoopbackServer {
    let count = Mutex(0)
    return try LoopbackServer { request in
        guard request.method == "POST", request.path == "/bot\(token)/sendMessage",
            request.header("Content-Type") == "application/json"
        else { return .json(#"{"ok":false,"error_code":404,"description":"Not Found"}"#, status: 404) }
        let index = count.withLock { count in
            defer { count += 1 }
            return count
        }
        return index < answers.count ? answers[index] : .json(#"{"ok":true,"result":{"message_id":1}}"#)
    }
}

@Suite("notify: retries, Retry-After, rate limits and the bounded queue, against loopback receivers")
struct NotifyDeliveryTests {
    @Test("a webhook answering 503 twice is retried with jittered backoff and delivered on the third try")
    func retriesServerErrors() async throws {
        let server = try LoopbackServer { request in
            request.method == "POST" ? .json("{}") : .status(405)
        }
        let failing = Mutex(2)
        let flaky = try LoopbackServer { request in
            failing.withLock { left in
                if left > 0 {
                    left -= 1
                    return .json(#"{"error":"busy"}"#, status: 503)
                }
                return .json(#"{"ok":true}"#)
            }
        }
        _ = server
        let clock = VirtualClock()
        let request = HTTPRequest(
            url: flaky.baseURL + "/hook", headers: [HTTPHeader(name: "Content-Type", value: "application/json")],
            method: .post, body: Array(message().json.utf8))
        let outcome = await sender(clock).send(request)
        #expect(outcome == .delivered(status: 200, preview: #"{"ok":true}"#))
        #expect(flaky.requests.count == 3)
        #expect(flaky.requests.allSatisfy { $0.body == Array(message().json.utf8) })
        // Base 1 s doubling, half fixed and half random (0.5 here): 0.75 s, then 1.5 s.
        #expect(clock.sleeps == [0.75, 1.5])
    }

    @Test(
        "a 429 waits as long as the receiver says: Retry-After in seconds, as an HTTP date, or Telegram's parameters.retry_after",
        arguments: [
            (LoopbackReply.json(#"{"ok":false}"#, status: 429).withHeader("Retry-After", "7"), 7.0),
            (LoopbackReply.json("{}", status: 429).withHeader("Retry-After", "Thu, 08 Aug 2024 08:12:45 GMT"), 30.0),
            (
                LoopbackReply.json(
                    #"{"ok":false,"error_code":429,"description":"Too Many Requests: retry after 5","parameters":{"retry_after":5}}"#,
                    status: 429), 5.0
            ),
            (
                LoopbackReply.json(
                    #"{"message":"You are being rate limited.","retry_after":0.25,"global":false}"#, status: 429),
                0.25
            ),
        ])
    func honoursRetryAfter(reply: LoopbackReply, wait: Double) async throws {
        let server = try telegram([reply])
        let clock = VirtualClock()
        let requests = NotifyRequests(
            secrets: NotifySecrets(telegramToken: token), environment: ["AGG_TELEGRAM_URL": server.baseURL])
        let outcome = await sender(clock).send(
            requests.request(message(), to: try NotifyDestination.parse("telegram://-100200")))
        #expect(outcome == .delivered(status: 200, preview: #"{"ok":true,"result":{"message_id":1}}"#))
        #expect(clock.sleeps == [wait])
        #expect(server.requests.count == 2)
        let body = JSONCursor(try JSONParser.parse(try #require(server.requests.last).body))
        #expect(try body["chat_id"].string() == "-100200")
        #expect(try body["text"].string() == "agg alert: upbit BTC last 1 (rule upbit:BTC last > 1)")
    }

    @Test("a 4xx is refused at once; 5xx on every try fails after 4 retries; neither repeats the token")
    func refusedAndFailed() async throws {
        let refusing = try telegram([
            .json(#"{"ok":false,"error_code":400,"description":"Bad Request: chat not found \#(token)"}"#, status: 400)
        ])
        let clock = VirtualClock()
        let destination = try NotifyDestination.parse("telegram://1")
        let refused = await sender(clock).send(
            NotifyRequests(
                secrets: NotifySecrets(telegramToken: token), environment: ["AGG_TELEGRAM_URL": refusing.baseURL]
            )
            .request(message(), to: destination))
        #expect(
            refused
                == .refused(
                    status: 400,
                    preview: #"{"ok":false,"error_code":400,"description":"Bad Request: chat not found ***"}"#))
        #expect(clock.sleeps.isEmpty)

        let down = try LoopbackServer { _ in .json(#"{"message":"down"}"#, status: 502) }
        let failed = await sender(clock).send(HTTPRequest(url: down.baseURL + "/hook", method: .post))
        #expect(failed == .failed(status: 502, preview: #"{"message":"down"}"#))
        #expect(down.requests.count == 5)
        #expect(clock.sleeps == [0.75, 1.5, 3, 6])
    }

    @Test("an unreachable destination is said without its URL, so a token in the path never shows")
    func unreachable() async throws {
        let closed = try LoopbackServer { _ in .json("{}") }
        let base = closed.baseURL
        closed.stop()
        let clock = VirtualClock()
        let outcome = await sender(clock).send(
            NotifyRequests(secrets: NotifySecrets(telegramToken: token), environment: ["AGG_TELEGRAM_URL": base])
                .request(message(), to: try NotifyDestination.parse("telegram://1")))
        guard case .unreachable(let detail) = outcome else {
            Issue.record("expected unreachable, got \(outcome)")
            return
        }
        #expect(detail.hasPrefix("connection failed: "))
        #expect(!detail.contains(token) && !detail.contains("/bot"))
        #expect(clock.sleeps.count == 4)
    }

    @Test("an answer over the transport's size limit is not asked again")
    func tooLarge() async throws {
        let server = try LoopbackServer { _ in .json(String(repeating: "x", count: 4096)) }
        let clock = VirtualClock()
        let outcome = await NotifySender(http: CurlHTTPClient(maximumBodySize: 1024), clock: clock.clock)
            .send(HTTPRequest(url: server.baseURL + "/hook", method: .post))
        #expect(outcome == .unreachable("the answer is larger than 1024 bytes"))
        #expect(server.requests.count == 1)
        #expect(clock.sleeps.isEmpty)
    }

    @Test("at most perMinute sends start in any 60 s: the rest wait for the window")
    func rateLimit() async throws {
        let clock = VirtualClock()
        let times = Mutex<[Double]>([])
        let server = try LoopbackServer { _ in
            times.withLock { $0.append(clock.now) }
            return .status(204)
        }
        let lines = SaidLines()
        let outbox = NotifyOutbox(
            destination: try NotifyDestination.parse("http://127.0.0.1/hook"), limits: NotifyLimits(perMinute: 2),
            requests: NotifyRequests(secrets: NotifySecrets(), environment: [:]),
            sender: NotifySender(http: RewritingClient(base: server.baseURL), clock: clock.clock), report: lines.report)
        for number in 1...5 { #expect(outbox.enqueue(message(number))) }
        // The waits are on the virtual clock; the drain's deadline is real time, far above
        // five loopback requests.
        let counts = await outbox.finish(deadline: 120)
        #expect(counts == NotifyCounts(delivered: 5))
        #expect(times.withLock { $0 } == [0, 0, 60, 60, 120])
        #expect(server.requests.map { String(decoding: $0.body, as: UTF8.self) } == (1...5).map { message($0).json })
        #expect(lines.all.isEmpty)
    }

    @Test("a full queue drops and counts, says so once, and never waits")
    func overflow() async throws {
        let gate = GateClient()
        let lines = SaidLines()
        let outbox = NotifyOutbox(
            destination: try NotifyDestination.parse("https://hooks.example.com/x"),
            limits: NotifyLimits(capacity: 2, perMinute: 1000),
            requests: NotifyRequests(secrets: NotifySecrets(), environment: [:]),
            sender: NotifySender(http: gate, clock: VirtualClock().clock), report: lines.report)
        #expect(outbox.enqueue(message(1)))
        await gate.waitForFirstRequest()
        // 1 is in flight; 2 and 3 wait; 4, 5 and 6 are dropped.
        #expect((2...6).map { outbox.enqueue(message($0)) } == [true, true, false, false, false])
        #expect(
            lines.all == [
                "agg: --notify https://hooks.example.com/***: 2 alerts already waiting: dropping alerts until it catches up"
            ])
        gate.open()
        let counts = await outbox.finish(deadline: 120)
        #expect(counts == NotifyCounts(delivered: 3, dropped: 3))
        #expect(gate.bodies == [1, 2, 3].map { message($0).json })
        #expect(lines.all.count == 2)
        #expect(lines.all.last == "agg: --notify https://hooks.example.com/***: 3 alerts dropped (queue full)")
    }

    @Test("stopping drains the queue; what is not sent within the deadline is cancelled and counted")
    func drainDeadline() async throws {
        let quick = try LoopbackServer { _ in .status(200) }
        let lines = SaidLines()
        let drained = NotifyOutbox(
            destination: try NotifyDestination.parse("http://127.0.0.1/hook"), limits: NotifyLimits(perMinute: 60),
            requests: NotifyRequests(secrets: NotifySecrets(), environment: [:]),
            sender: NotifySender(http: RewritingClient(base: quick.baseURL)), report: lines.report)
        for number in 1...3 { drained.enqueue(message(number)) }
        #expect(await drained.finish(deadline: 60) == NotifyCounts(delivered: 3))
        #expect(quick.requests.count == 3)

        let hanging = try LoopbackServer { _ in LoopbackReply.status(200).delayed(by: 300) }
        defer { hanging.stop() }
        let stuck = NotifyOutbox(
            destination: try NotifyDestination.parse("http://127.0.0.1/hook"), limits: NotifyLimits(perMinute: 60),
            requests: NotifyRequests(secrets: NotifySecrets(), environment: [:]),
            sender: NotifySender(http: RewritingClient(base: hanging.baseURL)), report: lines.report)
        for number in 1...3 { stuck.enqueue(message(number)) }
        let began = ContinuousClock.now
        let counts = await stuck.finish(deadline: 0.5)
        let took = ContinuousClock.now - began
        #expect(counts == NotifyCounts(abandoned: 3))
        // Ended by the deadline (and the cancellation reaching libcurl's thread), not by the
        // answer 300 s away: a wide margin for a loaded machine.
        #expect(took < .seconds(120))
        #expect(lines.all == ["agg: --notify http://127.0.0.1/***: 3 alerts not sent within 0.5 s of stopping"])
    }
}

/// Sends every request to `base` with the request's path kept, for destinations whose URL is
/// fixed (a webhook parsed from a literal).
struct RewritingClient: HTTPClient {
    let base: String
    let client = CurlHTTPClient()

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        var request = request
        if let scheme = request.url.range(of: "://"),
            let slash = request.url[scheme.upperBound...].firstIndex(of: "/")
        {
            request.url = base + request.url[slash...]
        }
        return try await client.send(request)
    }
}

/// Holds every request until `open()`; answers 200 after.
final class GateClient: HTTPClient {
    private let state = Mutex<(open: Bool, waiting: [CheckedContinuation<Void, Never>], bodies: [String])>(
        (false, [], []))
    private let (arrivals, arrived) = AsyncStream.makeStream(of: Void.self)

    var bodies: [String] { state.withLock { $0.bodies } }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        state.withLock { $0.bodies.append(String(decoding: request.body, as: UTF8.self)) }
        arrived.yield()
        await withCheckedContinuation { continuation in
            let resume = state.withLock { state -> Bool in
                if state.open { return true }
                state.waiting.append(continuation)
                return false
            }
            if resume { continuation.resume() }
        }
        return HTTPResponse(status: 200, headers: [], body: [], url: request.url)
    }

    func waitForFirstRequest() async {
        for await _ in arrivals { return }
    }

    func open() {
        let waiting = state.withLock { state in
            state.open = true
            defer { state.waiting = [] }
            return state.waiting
        }
        for continuation in waiting { continuation.resume() }
    }
}
