import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A pseudo-terminal for end-to-end tests: the child writes to its terminal side (so `isatty`
/// is true and agg draws as on a screen); the test reads everything written from the other.
final class PseudoTerminal: Sendable {
    /// The side the test reads.
    let controller: Int32
    /// The side given to the child as its standard output.
    let terminal: FileHandle
    private let received = Mutex<[UInt8]>([])

    init() throws {
        // Swift's Glibc module leaves out posix_openpt, grantpt, unlockpt and ptsname (they
        // need _XOPEN_SOURCE), so they are looked up in the C library by name.
        guard let openpt = Self.function("posix_openpt", as: (@convention(c) (Int32) -> Int32).self),
            let grant = Self.function("grantpt", as: (@convention(c) (Int32) -> Int32).self),
            let unlock = Self.function("unlockpt", as: (@convention(c) (Int32) -> Int32).self),
            let name = Self.function("ptsname", as: (@convention(c) (Int32) -> UnsafeMutablePointer<CChar>?).self)
        else { throw PseudoTerminalError(reason: "the C library has no pseudo-terminal functions") }
        let controller = openpt(O_RDWR | O_NOCTTY)
        guard controller >= 0, grant(controller) == 0, unlock(controller) == 0, let path = name(controller) else {
            throw PseudoTerminalError(reason: "cannot open a pseudo-terminal (errno \(errno))")
        }
        let terminal = open(path, O_RDWR | O_NOCTTY)
        guard terminal >= 0 else { throw PseudoTerminalError(reason: "cannot open \(String(cString: path))") }
        self.controller = controller
        self.terminal = FileHandle(fileDescriptor: terminal, closeOnDealloc: true)
    }

    /// The C library's function `name`, as `type`.
    private static func function<T>(_ name: String, as type: T.Type) -> T? {
        guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, name) else { return nil }
        return unsafeBitCast(symbol, to: type)
    }

    /// Reads on a thread of its own until the child's side is closed (EIO), then closes.
    func startReading() {
        Thread.detachNewThread { [self] in
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = read(controller, &buffer, buffer.count)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }
                received.withLock { $0 += buffer[..<count] }
            }
            close(controller)
        }
    }

    /// Everything read so far, as text.
    var text: String { received.withLock { String(decoding: $0, as: UTF8.self) } }

    /// Waits up to `seconds` for `condition` on what was read.
    func wait(seconds: Double, until condition: (String) -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition(text) { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return condition(text)
    }
}

struct PseudoTerminalError: Error, CustomStringConvertible {
    var reason: String
    var description: String { reason }
}
