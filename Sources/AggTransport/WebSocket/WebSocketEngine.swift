import Glibc

/// Runs every WebSocket connection of one client on one thread: a `poll` over the wake pipe and
/// every connection's sockets (libcurl's while connecting, the connected socket after), with a
/// timeout no later than the earliest deadline of any connection.
///
/// The engine is created on its thread, used only there, and ends when shutdown is asked for.
final class WebSocketEngine {
    /// The longest single `poll`, should a wake-up ever be lost.
    private static let maximumPollMilliseconds: Int64 = 1000

    private let mailbox: WebSocketMailbox
    private var sessions: [Int: WebSocketSession] = [:]
    /// Connections cancelled before their opening was taken out of the mailbox.
    private var cancelledEarly: Set<Int> = []
    private var lastIOThread: UInt = 0

    private init(mailbox: WebSocketMailbox) {
        self.mailbox = mailbox
    }

    /// Starts the engine thread; returns `false` when no thread could be made.
    static func start(mailbox: WebSocketMailbox) -> Bool {
        DetachedThread.start {
            WebSocketEngine(mailbox: mailbox).run()
            mailbox.markWorkerFinished()
        }
    }

    private func run() {
        mailbox.noteIOThread(UInt(pthread_self()))
        while true {
            let (commands, shutdown) = mailbox.take()
            if shutdown {
                for session in sessions.values { session.fail(.shutDown(url: session.url.original)) }
                for command in commands {
                    if case .open(let opening) = command {
                        WebSocketSession.refuse(opening, WebSocketError.shutDown(url: opening.url.original))
                    }
                }
                sessions.removeAll()
                mailbox.setSessionCount(0)
                return
            }
            for command in commands { handle(command) }
            let now = WebSocketClock.now()
            for session in sessions.values { session.checkDeadlines(now: now) }
            pruneFinished()
            waitAndServe()
            pruneFinished()
        }
    }

    private func handle(_ command: WebSocketCommand) {
        switch command {
        case .open(let opening):
            if cancelledEarly.remove(opening.id) != nil {
                WebSocketSession.refuse(opening, CancellationError())
            } else if let session = WebSocketSession.start(opening) {
                sessions[opening.id] = session
            }
        case .send(let id, let opcode, let bytes):
            sessions[id]?.queue(opcode: opcode, bytes: bytes)
        case .close(let id, let code, let reason):
            sessions[id]?.close(code: code, reason: reason, now: WebSocketClock.now())
        case .cancel(let id):
            if let session = sessions[id] {
                session.cancelOpening()
            } else {
                cancelledEarly.insert(id)
            }
        }
    }

    /// Polls the wake pipe and every session's sockets until something is ready or the earliest
    /// deadline comes, then lets each session with a ready socket do its work.
    private func waitAndServe() {
        var descriptors = [pollfd(fd: mailbox.wakeDescriptor, events: Int16(POLLIN), revents: 0)]
        var owners: [WebSocketSession?] = [nil]
        var earliest: UInt64?
        for session in sessions.values {
            for (fd, events) in session.pollRequests() {
                descriptors.append(pollfd(fd: fd, events: events, revents: 0))
                owners.append(session)
            }
            if let deadline = session.nextDeadline {
                earliest = min(earliest ?? deadline, deadline)
            }
        }
        var timeout = Self.maximumPollMilliseconds
        if let earliest {
            let now = WebSocketClock.now()
            timeout = earliest <= now ? 0 : min(timeout, Int64((earliest - now + 999_999) / 1_000_000))
        }
        let ready = poll(&descriptors, nfds_t(descriptors.count), Int32(timeout))
        guard ready > 0 else { return }
        // Every socket is served here, on the engine's thread; tests check that there is one.
        let thread = UInt(pthread_self())
        if thread != lastIOThread {
            lastIOThread = thread
            mailbox.noteIOThread(thread)
        }
        for (index, entry) in descriptors.enumerated() where entry.revents != 0 {
            owners[index]?.serve(fd: entry.fd, events: entry.revents)
        }
    }

    private func pruneFinished() {
        for (id, session) in sessions where session.isFinished {
            sessions.removeValue(forKey: id)
        }
        mailbox.setSessionCount(sessions.count)
    }
}

/// Monotonic time in nanoseconds, for the engine's deadlines.
enum WebSocketClock {
    static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// `seconds` from `start`, saturating.
    static func adding(_ seconds: Double, to start: UInt64) -> UInt64 {
        guard seconds.isFinite, seconds > 0 else { return start }
        let nanoseconds = min(seconds * 1e9, Double(UInt64.max / 2))
        return start &+ UInt64(nanoseconds)
    }
}
