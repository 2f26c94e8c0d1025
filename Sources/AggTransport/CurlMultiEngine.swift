import AggCore
import CCurl
import FoundationEssentials

/// Drives libcurl's multi interface on one dedicated thread, so that any number of transfers
/// run at once without occupying a thread of Swift's cooperative pool.
///
/// The thread owns the engine: it is created on the thread, used only there, and freed when the
/// thread's loop ends, which it does once the client asks for shutdown.
final class CurlMultiEngine {
    /// How long one `curl_multi_poll` may sleep when nothing happens. Posting work wakes it at
    /// once; this only bounds the wait should a wake-up ever be lost.
    private static let idlePollMilliseconds: Int32 = 1000

    private let mailbox: CurlEngineMailbox
    private let settings: CurlTransferSettings
    /// Transfers added to the multi handle, by the identity of their ticket. Holding them here
    /// keeps alive everything libcurl points into.
    private var active: [ObjectIdentifier: CurlTransfer] = [:]

    private var multi: UnsafeMutableRawPointer { mailbox.multi.raw }

    private init(mailbox: CurlEngineMailbox, settings: CurlTransferSettings) {
        self.mailbox = mailbox
        self.settings = settings
    }

    /// Starts the engine thread for `mailbox`.
    static func start(mailbox: CurlEngineMailbox, settings: CurlTransferSettings) {
        let started = DetachedThread.start {
            CurlMultiEngine(mailbox: mailbox, settings: settings).run()
            mailbox.markWorkerFinished()
        }
        if !started { mailbox.markWorkerFinished() }
    }

    /// The error of a request the engine could not run because its client was released.
    static func shutDownError(url: String) -> TransportError {
        .connection(url: url, detail: "the HTTP client was shut down")
    }

    private func run() {
        while true {
            let work = mailbox.takeWork()
            for ticket in work.cancelled { cancel(ticket) }
            if work.shutdownRequested {
                shutDown(unstarted: work.submitted)
                return
            }
            for ticket in work.submitted { start(ticket) }

            var running: Int32 = 0
            _ = curl_multi_perform(multi, &running)
            for (ticket, outcome) in collectFinished() { ticket.finish(outcome) }
            _ = curl_multi_poll(multi, nil, 0, Self.idlePollMilliseconds, nil)
        }
    }

    private func start(_ ticket: CurlTicket) {
        // A ticket cancelled (and maybe resumed already) before its turn never starts.
        guard ticket.isAwaitingAnswer else {
            ticket.finish(.failure(CancellationError()))
            return
        }
        let transfer: CurlTransfer
        do {
            transfer = try CurlTransfer(ticket: ticket, settings: settings, mailbox: mailbox)
        } catch {
            ticket.finish(.failure(error))
            return
        }
        let code = curl_multi_add_handle(multi, transfer.handle.raw)
        guard code == CURLM_OK else {
            let detail = String(cString: curl_multi_strerror(code))
            ticket.finish(.failure(TransportError.connection(url: ticket.request.url, detail: detail)))
            return
        }
        active[ObjectIdentifier(ticket)] = transfer
    }

    /// Stops `ticket`'s transfer, if it is running, and resumes its caller with
    /// `CancellationError`.
    private func cancel(_ ticket: CurlTicket) {
        if let transfer = active.removeValue(forKey: ObjectIdentifier(ticket)) {
            _ = curl_multi_remove_handle(multi, transfer.handle.raw)
        }
        ticket.finish(.failure(CancellationError()))
    }

    /// Removes every transfer libcurl reports done and returns the outcomes to deliver. The
    /// transfers (and their easy handles) are freed before the callers are resumed.
    private func collectFinished() -> [(CurlTicket, Result<HTTPResponse, any Error>)] {
        var finished: [(CurlTicket, Result<HTTPResponse, any Error>)] = []
        var queued: Int32 = 0
        while let message = curl_multi_info_read(multi, &queued) {
            // The message does not survive curl_multi_remove_handle: copy what is needed first.
            guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle else { continue }
            let code = message.pointee.data.result
            _ = curl_multi_remove_handle(multi, easy)
            guard let transfer = activeTransfer(for: easy) else { continue }
            active.removeValue(forKey: ObjectIdentifier(transfer.ticket))
            finished.append((transfer.ticket, transfer.outcome(code).mapError { $0 }))
        }
        return finished
    }

    /// The active transfer whose easy handle is `easy`, found through `CURLOPT_PRIVATE`.
    private func activeTransfer(for easy: UnsafeMutableRawPointer) -> CurlTransfer? {
        guard let context = CurlEasyHandle.privatePointer(of: easy) else { return nil }
        // Only transfers held in `active` are attached to the multi handle, so the pointer is live.
        return Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    }

    /// Fails whatever is left and detaches every easy handle before the thread ends.
    private func shutDown(unstarted: [CurlTicket]) {
        let remaining = active.values.map(\.ticket) + unstarted
        for transfer in active.values { _ = curl_multi_remove_handle(multi, transfer.handle.raw) }
        active.removeAll()
        for ticket in remaining {
            ticket.finish(.failure(Self.shutDownError(url: ticket.request.url)))
        }
    }
}
