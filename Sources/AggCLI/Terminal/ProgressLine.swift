import AggCore
import AggServices

#if canImport(Glibc)
    @preconcurrency import Glibc
#endif

/// A spinner on standard error while requests are in flight, so that a slow venue does not look
/// like a hung program.
///
/// It appears only when standard error is a terminal, and only after `delay`, so fast answers
/// and pipes see nothing. It is driven by its own task, which is cancelled when the work ends; the
/// task erases its line before `during` returns, so output printed afterwards starts on a
/// clean line.
enum ProgressLine {
    /// The spinner's frames (braille dots, as most terminals draw them).
    static let frames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]
    /// Erases the current line: carriage return, then clear to the end of the line.
    static let erase = "\r\u{1B}[K"

    /// Runs `body`, showing `message` with a spinner on standard error while it runs when
    /// standard error is a terminal.
    ///
    /// With `signals`, a stop signal (Ctrl-C's SIGINT, SIGTERM, SIGHUP) while the spinner runs
    /// erases its line and exits with 128 + the signal's number (130, 143, 129), as a shell
    /// reports a process the signal ended, instead of dying with the spinner left on the line.
    /// A one-shot command has printed nothing yet, so there is nothing else to put right.
    static func during<T>(
        _ message: String, console: Console, delay: Duration = .milliseconds(150),
        signals: (@Sendable () -> AsyncStream<Int32>)? = nil, _ body: () async throws(AggError) -> T
    ) async throws(AggError) -> T {
        guard console.errorIsTerminal else { return try await body() }
        let spinner = start(TerminalText.escape(message), sink: console.standardError, delay: delay)
        // The handlers are in place once the stream exists, before any request goes.
        let stops = signals?()
        let watcher = stops.map { stops in
            Task {
                for await number in stops {
                    spinner.cancel()
                    await spinner.value
                    exit(128 + number)
                }
            }
        }
        let result: Result<T, AggError>
        do throws(AggError) {
            result = .success(try await body())
        } catch {
            result = .failure(error)
        }
        // The work is done: a signal from now on is the caller's (its default disposition comes
        // back as the stream ends).
        watcher?.cancel()
        spinner.cancel()
        await spinner.value
        return try result.get()
    }

    /// Starts drawing on `sink` after `delay`, every 80 ms, until the returned task is
    /// cancelled; the task erases what it drew, if anything, before it finishes.
    static func start(_ message: String, sink: any TextSink, delay: Duration) -> Task<Void, Never> {
        Task {
            do {
                try await Task.sleep(for: delay)
            } catch {
                return
            }
            var frame = 0
            defer { if frame > 0 { sink.write(erase) } }
            while !Task.isCancelled {
                sink.write("\r" + frames[frame % frames.count] + " " + message + "…")
                frame += 1
                do {
                    try await Task.sleep(for: .milliseconds(80))
                } catch {
                    break
                }
            }
        }
    }
}
