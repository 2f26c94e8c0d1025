import Synchronization

/// Runs a venue's ticker stream: it spreads the markets over connections, connects, subscribes,
/// keeps every connection alive, reads the messages through the venue's codec, notices stalls,
/// reconnects with jittered exponential backoff, re-subscribes, and says when the caller should
/// fill a gap or poll instead. Every quota and deadline comes from the venue's
/// `StreamDescriptor`, so no adapter enforces its own.
///
/// ```swift
/// let stream = try VenueStream(
///     descriptor: UpbitAdapter.descriptor, codec: UpbitAdapter.tickerCodec, url: url,
///     markets: markets, connector: WebSocketClient())
/// for await event in stream.events() { ... }
/// ```
///
/// Cancelling the task that iterates `events()` (or that calls `run`) closes every connection
/// and ends every task of the runner.
public struct VenueStream: Sendable {
    /// The venue's id, as in its descriptor.
    public let venue: String
    /// The markets of each connection, in order: at most `marketsPerConnection` each. Events name
    /// a connection by its index here.
    public let plan: [[Market]]

    private let stream: StreamDescriptor
    private let codec: any TickerStreamCodec
    private let url: String
    private let headers: [HTTPHeader]
    private let connector: any WebSocketConnector
    private let clock: any StreamClock
    private let policy: StreamRetryPolicy
    private let jitterSeed: UInt64

    /// Creates a runner; nothing connects until `events()` is iterated or `run` is called.
    ///
    /// - Parameters:
    ///   - url: the stream URL, `AGG_<ID>_WS_URL` already applied by the caller.
    ///   - jitterSeed: seeds the backoff's jitter (connection n uses `jitterSeed + n`).
    /// - Throws: `AggError.unsupported` when the descriptor declares no stream.
    public init(
        descriptor: AdapterDescriptor, codec: any TickerStreamCodec, url: String, markets: [Market],
        headers: [HTTPHeader] = [], connector: any WebSocketConnector,
        clock: any StreamClock = SystemStreamClock(), policy: StreamRetryPolicy = .standard,
        jitterSeed: UInt64 = UInt64.random(in: .min ... .max)
    ) throws(AggError) {
        guard let stream = descriptor.stream else {
            throw .unsupported(venue: descriptor.id, capability: .stream)
        }
        venue = descriptor.id
        self.stream = stream
        self.codec = codec
        self.url = url
        self.headers = headers
        self.connector = connector
        self.clock = clock
        self.policy = policy
        self.jitterSeed = jitterSeed
        plan = Self.chunks(markets, of: stream.quotas.marketsPerConnection)
    }

    /// The events of every connection until the iterating task is cancelled or stops iterating.
    public func events() -> AsyncStream<VenueStreamEvent> {
        let (events, continuation) = AsyncStream<VenueStreamEvent>.makeStream()
        let runner = Task { await run(continuation) }
        continuation.onTermination = { _ in runner.cancel() }
        return events
    }

    /// Runs every connection, yielding events into `continuation`, until the calling task is
    /// cancelled; finishes `continuation` before it returns.
    public func run(_ continuation: AsyncStream<VenueStreamEvent>.Continuation) async {
        let book = VenueStreamBook(connections: plan.count, continuation: continuation)
        let attempts = ConnectionAttempts(
            SlidingWindowPacer(limit: stream.quotas.connectionsPerWindow, window: stream.quotas.connectionWindow))
        await withDiscardingTaskGroup { group in
            for (index, markets) in plan.enumerated() {
                group.addTask { await runConnection(index, markets: markets, book: book, attempts: attempts) }
            }
        }
        continuation.finish()
    }

    /// The subscribe messages of one connection: the codec's, for slices of at most
    /// `marketsPerMessage` markets, in order.
    func subscription(for markets: [Market]) -> [StreamMessage] {
        stream.quotas.subscribeBatches(markets).flatMap { codec.subscribeMessages(for: $0) }
    }

    /// One connection, from its first attempt until cancellation.
    private func runConnection(
        _ index: Int, markets: [Market], book: VenueStreamBook, attempts: ConnectionAttempts
    ) async {
        let subscription = subscription(for: markets)
        var backoff = StreamBackoff(policy: policy, seed: jitterSeed &+ UInt64(index))
        let fallbackAfter = policy.fallbackAfter
        let clock = clock
        // Polling begins when an outage has lasted the fallback time; a watcher per outage
        // finds out (the connection may be live again by then).
        let watchFallback: @Sendable (Int, Duration) async -> Void = { outage, start in
            guard (try? await clock.sleep(until: start + fallbackAfter)) != nil else { return }
            book.fallBack(index, outage: outage)
        }
        await withDiscardingTaskGroup { group in
            let start = clock.now
            group.addTask { await watchFallback(0, start) }
            var failures = 0
            while !Task.isCancelled {
                let now = clock.now
                let earliest = failures == 0 ? now : now + backoff.delay(afterFailures: failures)
                let slot = attempts.reserve(from: earliest)
                if slot > now {
                    guard (try? await clock.sleep(until: slot)) != nil else { break }
                }
                book.connecting(index, attempt: failures + 1, waited: slot - now)
                guard let fault = await attempt(index, subscription: subscription, book: book) else { break }
                if Task.isCancelled { break }
                if let outage = book.failed(index, fault) {
                    failures = 1
                    let start = clock.now
                    group.addTask { await watchFallback(outage, start) }
                } else {
                    failures += 1
                }
            }
            group.cancelAll()
        }
    }

    /// Connects and runs one session; returns its fault, or `nil` when cancelled.
    private func attempt(_ index: Int, subscription: [StreamMessage], book: VenueStreamBook) async -> StreamFault? {
        let connection: any StreamConnection
        do {
            connection = try await connector.connectStream(to: url, headers: headers)
        } catch let fault as StreamFault {
            return Task.isCancelled ? nil : fault
        } catch is CancellationError {
            return nil
        } catch {
            return Task.isCancelled ? nil : .unreachable("\(error)")
        }
        let session = StreamSession(
            index: index, connection: connection, codec: codec, subscription: subscription,
            keepAlive: stream.keepAlive, silenceLimit: stream.silenceLimit,
            messagesPerSecond: stream.quotas.messagesPerSecond, clock: clock, book: book)
        let fault = await session.run()
        connection.close(code: 1000)
        return fault
    }

    /// `items` cut into runs of at most `size` (at least 1).
    static func chunks<Item>(_ items: [Item], of size: Int) -> [[Item]] {
        StreamQuotas.batches(items, of: size)
    }
}

/// The connection attempts of a venue's connections, paced together by the venue's quota.
final class ConnectionAttempts: Sendable {
    private let pacer: Mutex<SlidingWindowPacer>

    init(_ pacer: SlidingWindowPacer) {
        self.pacer = Mutex(pacer)
    }

    /// Takes the earliest attempt slot at or after `earliest`.
    func reserve(from earliest: Duration) -> Duration {
        pacer.withLock { $0.reserve(from: earliest) }
    }
}
