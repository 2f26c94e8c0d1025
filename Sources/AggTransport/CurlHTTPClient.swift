import AggCore

/// The real transport: HTTP(S) GET requests through libcurl.
///
/// Requests run in parallel on one dedicated thread that drives libcurl's multi interface, so
/// waiting for an answer never occupies a thread of Swift's cooperative pool. Each `send` hands
/// its request to that thread and suspends until the transfer ends. Cancelling the calling task
/// cancels the transfer. The thread ends when the client is released.
///
/// Every request is sent with `User-Agent`, `Accept: application/json` (unless the request names
/// its own `Accept`) and an `Accept-Encoding` listing every encoding libcurl decodes; an `Origin`
/// header is never sent. Redirects are followed (at most 5, HTTP and HTTPS only) and TLS
/// certificates and host names are always verified.
public final class CurlHTTPClient: HTTPClient {
    /// The default limit on the size of a body: 64 MiB.
    public static let defaultMaximumBodySize = 64 * 1024 * 1024

    /// The timeouts of requests that carry none of their own.
    public let timeouts: HTTPTimeouts
    /// The `User-Agent` header value.
    public let userAgent: String
    /// The largest body accepted, in bytes after content decoding; a larger one fails the
    /// request with `TransportError.responseTooLarge`.
    public let maximumBodySize: Int

    /// `nil` when libcurl could not be initialised; every request then fails.
    private let mailbox: CurlEngineMailbox?

    /// Creates a client and starts its transfer thread.
    ///
    /// - Parameters:
    ///   - timeouts: used for requests that carry none of their own.
    ///   - userAgent: the `User-Agent` header value.
    ///   - maximumBodySize: the largest body accepted, in bytes after content decoding.
    public init(
        timeouts: HTTPTimeouts = .standard,
        userAgent: String = AggVersion.userAgent,
        maximumBodySize: Int = CurlHTTPClient.defaultMaximumBodySize
    ) {
        self.timeouts = timeouts
        self.userAgent = userAgent
        self.maximumBodySize = maximumBodySize
        if let multi = CurlMultiHandle() {
            let mailbox = CurlEngineMailbox(multi: multi)
            let settings = CurlTransferSettings(
                timeouts: timeouts, userAgent: userAgent, maximumBodySize: maximumBodySize)
            CurlMultiEngine.start(mailbox: mailbox, settings: settings)
            self.mailbox = mailbox
        } else {
            self.mailbox = nil
        }
    }

    deinit {
        mailbox?.requestShutdown()
    }

    /// Sends `request` and returns the complete answer, whatever its HTTP status.
    ///
    /// - Throws: `TransportError` when there is no complete answer (`.timeout`, `.connection`,
    ///   `.malformedResponse` for a cut-short or undecodable answer, `.responseTooLarge` for a
    ///   body over `maximumBodySize`, `.invalidURL`),
    ///   and `CancellationError` when the calling task is cancelled.
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        guard let mailbox else {
            throw TransportError.connection(url: request.url, detail: "libcurl could not be initialised")
        }
        // The client must outlive its requests: releasing it shuts its thread down.
        defer { withExtendedLifetime(self) {} }
        let ticket = CurlTicket(request: request)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                if ticket.install(continuation) { mailbox.submit(ticket) }
            }
        } onCancel: {
            if ticket.cancel() { mailbox.cancel(ticket) }
        }
    }

    /// A view of the transfer thread that outlives the client, for tests.
    package var engineProbe: CurlEngineProbe {
        CurlEngineProbe(mailbox: mailbox)
    }
}

/// Observes a client's transfer thread, for tests that check it frees what it creates.
package struct CurlEngineProbe: Sendable {
    fileprivate let mailbox: CurlEngineMailbox?

    /// Whether the transfer thread is still running.
    package var isWorkerRunning: Bool { mailbox?.isWorkerRunning ?? false }

    /// The number of libcurl easy handles that exist right now.
    package var liveTransferCount: Int { mailbox?.liveTransferCount ?? 0 }
}
