import AggCore
import AggServer
import AggTestKit
import Foundation
import Synchronization
import Testing

@testable import AggCLI
@testable import AggServe

/// `agg serve` under expensive requests: symbols per request are bounded (400), expensive
/// answers are computed a few at a time with a bounded queue (503 and `Retry-After` past it),
/// cheap routes keep answering, the response cache is bounded by bytes, and JSON answers carry
/// an ETag from the snapshot generation.
@Suite("agg serve: bounded work")
struct ServeLimitsTests {
    /// `count` made-up coins: ZA0, ZA1, ... (valid symbols no venue lists), from `offset`.
    static func madeUp(_ count: Int, offset: Int = 0) -> String {
        (offset..<offset + count).map { "Z\($0)X" }.joined(separator: ",")
    }

    @Test(
        "more than 200 symbols in one request is 400 with one JSON line",
        arguments: ["/v1/compare", "/v1/quote", "/v1/premium", "/v1/status"])
    func tooManySymbols(path: String) async throws {
        let harness = try ServeHarness()
        await harness.poll()
        let answer = try await harness.get(path + "?symbol=" + Self.madeUp(201))
        #expect(answer.status == 400)
        #expect(answer.text == HTTPServerResponse.errorText(400, "at most 200 symbols a request; this one names 201"))
        let most = try await harness.get("/v1/compare?symbol=" + Self.madeUp(200))
        #expect(most.status == 200)
    }

    @Test("a full queue of expensive answers is 503 with Retry-After at once; quote, healthz, metrics answer")
    func floodOfExpensiveRequests() async throws {
        let harness = try ServeHarness()
        await harness.poll()
        let port = harness.port
        // Distinct keys, so that the cache cannot share them.
        let compares = Task {
            await withTaskGroup(of: RawHTTPClient.Answer?.self) { group in
                for index in 0..<48 {
                    group.addTask {
                        try? await RawHTTPClient.get(
                            port: port, "/v1/compare?symbol=" + Self.madeUp(200, offset: index * 7))
                    }
                }
                var answers: [RawHTTPClient.Answer?] = []
                for await answer in group { answers.append(answer) }
                return answers.compactMap { $0 }
            }
        }
        // Cheap routes answer while the expensive ones queue.
        try await Task.sleep(for: .milliseconds(50))
        let quote = try await harness.get("/v1/quote?symbol=BTC&exchange=bithumb")
        let health = try await harness.get("/healthz")
        let scrape = try await harness.get("/metrics")
        let all = await compares.value
        #expect(quote.status == 200)
        #expect(health.status == 200)
        #expect(scrape.status == 200)
        #expect(all.count == 48)
        let refused = all.filter { $0.status == 503 }
        #expect(!refused.isEmpty)
        #expect(all.allSatisfy { $0.status == 200 || $0.status == 503 })
        for answer in refused { #expect(answer.header("retry-after") == "1") }
        #expect(
            refused.contains {
                $0.text
                    == HTTPServerResponse.errorText(503, "too many answers are being computed; try again in a second")
            })
        let metrics = try await harness.get("/metrics").text
        #expect(metrics.contains("agg_http_rejected_requests_total \(refused.count)\n"))
    }

    @Test("an answer later than its deadline is 503 with Retry-After; its slot comes back when the work ends")
    func lateAnswer() async throws {
        let store = StalledHistoryStore()
        var limits = ServeLimits.standard
        limits.computeSeconds = 1
        let harness = try ServeHarness(history: store, work: limits)
        let started = ContinuousClock.now
        let late = try await harness.get("/v1/history?symbol=BTC")
        let waited = ContinuousClock.now - started
        #expect(late.status == 503)
        #expect(late.text == HTTPServerResponse.errorText(503, "the history store did not answer within 1 s"))
        #expect(late.header("retry-after") == "1")
        #expect(waited >= .seconds(1))
        // The slot is held while the stalled read runs, though its client has its answer.
        let during = try await harness.get("/metrics").text
        #expect(during.contains("agg_http_rejected_requests_total 1\n"))
        #expect(during.contains(#"agg_compute_running{lane="expensive"} 1"# + "\n"))
        // The store answers now: the read ends and leaves its slot (polled: ending is pool work).
        await store.release()
        var after = ""
        for _ in 0..<3_000 {
            after = try await harness.get("/metrics").text
            if after.contains(#"agg_compute_running{lane="expensive"} 0"# + "\n") { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(after.contains(#"agg_compute_running{lane="expensive"} 0"# + "\n"))
        #expect(await store.reads == 1)
    }

    @Test("the work queue: slots run, a bounded number wait, the rest are refused at once; idle after a burst")
    func workQueue() async throws {
        let idled = Mutex(0)
        let queue = WorkQueue(slots: 1, waitingLimit: 1, burst: 2) { idled.withLock { $0 += 1 } }
        /// The refusal, or `nil` for a slot.
        func refusal(_ result: Result<Void, WorkQueue.Refusal>) -> WorkQueue.Refusal? {
            if case .failure(let refusal) = result { return refusal }
            return nil
        }
        #expect(refusal(queue.enter(waiting: 0)) == nil)
        // A second client waits for the slot (on a thread of its own, as a connection does).
        let waiter = Task.detached { refusal(queue.enter(waiting: 60)) }
        while queue.waiting == 0 { try await Task.sleep(for: .milliseconds(5)) }
        // A third finds the slot taken and the waiting room full: refused at once.
        #expect(refusal(queue.enter(waiting: 60)) == .full)
        #expect(queue.rejected == 1)
        queue.leave()
        #expect(await waiter.value == nil)
        #expect(queue.running == 1)
        #expect(queue.waiting == 0)
        // No slot within the wait: refused, counted.
        #expect(refusal(queue.enter(waiting: 0.05)) == .timedOut)
        #expect(queue.rejected == 2)
        #expect(idled.withLock { $0 } == 0)
        queue.leave()
        // Two pieces ended and nothing runs or waits: the burst is over.
        #expect(idled.withLock { $0 } == 1)
        #expect(queue.running == 0)
    }

    @Test("the response cache keeps at most its bytes, the least recently used leaving first")
    func cacheBoundedByBytes() {
        let cache = ResponseCache(capacity: 100, maximumBytes: 2_000)
        let computed = Mutex<[String]>([])
        func get(_ key: String) {
            _ = cache.response(key: key, generation: 1) {
                computed.withLock { $0.append(key) }
                return .json(String(repeating: "x", count: 300))
            }
        }
        for key in ["a", "b", "c", "d"] { get(key) }
        get("a")
        for key in ["e", "f"] { get(key) }
        #expect(cache.bytes <= 2_000)
        get("a")
        get("b")
        #expect(computed.withLock { $0 } == ["a", "b", "c", "d", "e", "f", "b"])
        // Too large to keep: computed every time.
        _ = cache.response(key: "big", generation: 1) { .json(String(repeating: "y", count: 1_000)) }
        #expect(cache.count <= 6)
        #expect(cache.bytes <= 2_000)
    }

    @Test("JSON answers carry an ETag from the snapshot generation; it changes with the next snapshot")
    func etag() async throws {
        let harness = try ServeHarness()
        let snapshot = await harness.poll()
        let app = harness.runtime.app
        let request = HTTPServerRequest(
            method: "GET", path: "/v1/quote", arguments: [.init(name: "symbol", value: "BTC")])
        let first = app.respond(to: request)
        let again = app.respond(to: request)
        let tag = try #require(first.etag)
        #expect(tag.hasSuffix("-\(snapshot.generation)"))
        #expect(again.etag == tag)
        #expect(app.respond(to: HTTPServerRequest(method: "GET", path: "/v1/exchanges")).etag != nil)
        #expect(app.respond(to: HTTPServerRequest(method: "GET", path: "/healthz")).etag == nil)
        await harness.poll()
        let next = try #require(app.respond(to: request).etag)
        #expect(next != tag)
        let instance = { (tag: String) in tag.split(separator: "-").dropLast().joined(separator: "-") }
        #expect(instance(next) == instance(tag))
    }

    @Test("a stream client cut off with events unread counts as dropped; one that read them does not")
    func streamDropped() {
        let hub = EventStreamHub(maximumSubscribers: 4, queueLimit: 8)
        let reading = hub.subscribe()
        let stuck = hub.subscribe()
        hub.publish(ServerSentEvent(event: "board", id: "1", data: "{}"))
        hub.publish(ServerSentEvent(event: "board", id: "2", data: "{}"))
        #expect(reading?.next(waiting: 0) == .event(ServerSentEvent(event: "board", id: "1", data: "{}").wire))
        #expect(reading?.next(waiting: 0) == .event(ServerSentEvent(event: "board", id: "2", data: "{}").wire))
        reading?.cancel()
        #expect(hub.droppedCount == 0)
        // The server cuts off a client whose socket stopped taking bytes: its events wait unread.
        stuck?.cancel()
        #expect(hub.droppedCount == 1)
        #expect(hub.subscriberCount == 0)
    }

    @Test("metric names follow Prometheus' naming: counters end in _total, times in seconds")
    func metricNames() async throws {
        let harness = try ServeHarness()
        await harness.poll()
        let text = try await harness.get("/metrics").text
        var types: [String: String] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("# TYPE ") {
            let parts = line.split(separator: " ")
            types[String(parts[2])] = String(parts[3])
        }
        for (name, type) in types {
            #expect(name.hasPrefix("agg_"))
            #expect((type == "counter") == name.hasSuffix("_total"), "\(name) is a \(type)")
        }
        #expect(types["agg_snapshots_published_total"] == "counter")
        #expect(types["agg_snapshot_generation"] == nil)
    }
}

/// A history store whose reads wait until `release()`: serve's deadline, not the store, ends
/// the request.
actor StalledHistoryStore: HistoryStoreStub {
    private var waiting: [CheckedContinuation<Void, Never>] = []
    private var released = false
    /// Price reads begun.
    private(set) var reads = 0

    func release() {
        released = true
        for continuation in waiting { continuation.resume() }
        waiting = []
    }

    private func stall() async {
        if released { return }
        await withCheckedContinuation { waiting.append($0) }
    }

    func prices(_ query: HistoryQuery) async throws(AggError) -> [PricePoint] {
        reads += 1
        await stall()
        return []
    }
}
