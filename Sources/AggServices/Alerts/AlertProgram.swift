import AggCore
import AggOptions
import Dispatch
import Synchronization

#if canImport(Glibc)
    @preconcurrency import Glibc
#endif

/// `--on-alert PROGRAM [--on-alert-arg ARG]...`: runs PROGRAM once per alert, with the alert's
/// JSON (one line) on its standard input.
///
/// No shell is involved: PROGRAM is a path (absolute, or relative to the current directory; not
/// looked up in `PATH`) and each `--on-alert-arg` is one argument, as given. The program's
/// standard output and error go to /dev/null (so it can neither break a redrawn board nor write
/// escape sequences to the terminal); it starts in a process group of its own with the default
/// signal dispositions, and inherits no descriptor but its standard three.
///
/// Each run is started and waited for on a thread of its own, never on the cooperative pool, so
/// a slow program never delays the loop. A program that exits non-zero or is killed by a signal
/// is reported in one line on standard error; one still running after `timeLimit` seconds has
/// its process group killed (SIGKILL), is reaped, and is reported.
package final class AlertProgram: Sendable {
    /// The default time limit, in seconds.
    static let defaultTimeLimit: Double = 10

    let path: String
    let arguments: [String]
    let timeLimit: Double
    private let console: Console
    private let running = DispatchGroup()

    package init(path: String, arguments: [String], timeLimit: Double = defaultTimeLimit, console: Console) {
        self.path = path
        self.arguments = arguments
        self.timeLimit = timeLimit
        self.console = console
    }

    /// Starts the program for `alert` and returns at once.
    func run(_ alert: Alert) {
        let input = alert.json + "\n"
        running.enter()
        // A queue of its own per run: it targets the overcommitting global queue, which gives it
        // a thread even while other runs wait.
        DispatchQueue(label: "agg.on-alert").async { [self] in
            if let problem = execute(input: input) { console.printError("agg: --on-alert \(path): \(problem)") }
            running.leave()
        }
    }

    /// Waits until every program started has ended (each within its time limit).
    func finish() async {
        await withCheckedContinuation { continuation in
            running.notify(queue: .global()) { continuation.resume() }
        }
    }

    /// Runs the program to its end with `input` on standard input; what went wrong, if anything.
    private func execute(input: String) -> String? {
        // The input is a file removed as soon as it is made, not a pipe: writing it cannot block,
        // and a program that exits without reading it cannot raise SIGPIPE in agg.
        let directory = ProcessEnvironment.temporaryDirectory
        var template = Array((directory + "/agg-alert-XXXXXX").utf8CString)
        let stdin = template.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress.map { mkstemp($0) } ?? -1
        }
        guard stdin >= 0 else { return "cannot make its input in \(directory): \(WriteFailure(errno: errno))" }
        unlink(String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self))
        _ = fcntl(stdin, F_SETFD, FD_CLOEXEC)
        defer { close(stdin) }
        var text = input
        let written = text.withUTF8 { Glibc.write(stdin, $0.baseAddress, $0.count) }
        guard written == input.utf8.count, lseek(stdin, 0, SEEK_SET) == 0 else {
            return "cannot make its input: \(WriteFailure(errno: errno))"
        }
        let pid: pid_t
        switch spawnRetryingBusy(stdin: stdin) {
        case .success(let started): pid = started
        case .failure(let error): return "cannot start it: \(WriteFailure(errno: error.code))"
        }
        return wait(pid)
    }

    /// `spawn`, tried again a few times over about 150 ms while the kernel answers ETXTBSY: a
    /// program file that is still open for writing somewhere cannot be run, and that is often
    /// only for a moment (a script just saved, or its descriptor inherited by a process another
    /// thread is starting, until that process runs its own program).
    private func spawnRetryingBusy(stdin: Int32) -> Result<pid_t, SpawnError> {
        var pause: UInt32 = 10_000
        for _ in 0..<4 {
            let result = spawn(stdin: stdin)
            guard case .failure(let error) = result, error.code == ETXTBSY else { return result }
            usleep(pause)
            pause *= 2
        }
        return spawn(stdin: stdin)
    }

    /// Starts the program with `stdin` as standard input; its pid, or the `errno`.
    private func spawn(stdin: Int32) -> Result<pid_t, SpawnError> {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, stdin, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        _ = SpawnExtensions.closeFrom?(&actions, 3)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // agg ignores the stop signals while it watches; an ignored signal stays ignored across
        // exec, so the program gets the defaults back.
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for number in [SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGQUIT] { sigaddset(&defaults, number) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        posix_spawnattr_setsigmask(&attributes, &unblocked)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETPGROUP))

        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let code = posix_spawn(&pid, path, &actions, &attributes, argv, environ)
        return code == 0 ? .success(pid) : .failure(SpawnError(code: code))
    }

    /// Waits for `pid` until the time limit, then kills its process group; reaps it either way.
    private func wait(_ pid: pid_t) -> String? {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(max(0, timeLimit) * 1_000_000_000)
        var status: Int32 = 0
        var pause: UInt32 = 1_000
        while true {
            let reaped = waitpid(pid, &status, WNOHANG)
            if reaped == pid { break }
            if reaped < 0, errno != EINTR { return "cannot wait for it: \(WriteFailure(errno: errno))" }
            if DispatchTime.now().uptimeNanoseconds >= deadline {
                // Not reaped yet, so the pid (and its group) is still this program's.
                kill(-pid, SIGKILL)
                while waitpid(pid, &status, 0) < 0, errno == EINTR {}
                return "did not finish within \(RateText.format(timeLimit)) s: killed"
            }
            usleep(pause)
            pause = min(pause * 2, 20_000)
        }
        let exitCode = (status >> 8) & 0xFF
        let signal = status & 0x7F
        if signal != 0 { return "ended by signal \(signal)" }
        if exitCode != 0 { return "exited with status \(exitCode)" }
        return nil
    }
}

/// glibc's GNU extensions to `posix_spawn` that Swift's Glibc module does not declare (it is
/// built without `_GNU_SOURCE`), looked up by name once.
///
/// `@unchecked Sendable` at the C boundary: it holds an immutable C function pointer, safe to
/// call from any thread.
private struct SpawnExtensions: @unchecked Sendable {
    typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32

    /// `posix_spawn_file_actions_addclosefrom_np` (glibc 2.34 and later): the child inherits no
    /// descriptor from 3 up, whatever agg or libcurl left open without `O_CLOEXEC`.
    static let closeFrom: CloseFrom? = {
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return nil }
        return unsafeBitCast(symbol, to: CloseFrom.self)
    }()
}

/// Where temporary files go: `$TMPDIR`, else /tmp.
private enum ProcessEnvironment {
    static var temporaryDirectory: String {
        if let value = getenv("TMPDIR"), value.pointee != 0 { return String(cString: value) }
        return "/tmp"
    }
}

/// An `errno` from `posix_spawn`.
private struct SpawnError: Error {
    var code: Int32
}
