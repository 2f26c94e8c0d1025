import Synchronization

#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Somewhere text goes: a file descriptor, or a buffer in tests.
package protocol TextSink: Sendable {
    func write(_ text: String)

    /// Writes UTF-8 text held as bytes (`agg quote --all`'s JSON, written into one buffer), with
    /// no detour through a `String`.
    func write(utf8: [UInt8])

    /// Why a write failed, once one has; the sink drops everything written after that.
    var failure: WriteFailure? { get }

    /// Ends the output (a file descriptor is closed, which reports errors some file systems
    /// keep until then) and returns the first failure of a write or of the close, if any.
    func finish() -> WriteFailure?
}

extension TextSink {
    /// A sink that cannot fail.
    package var failure: WriteFailure? { nil }

    package func write(utf8: [UInt8]) { write(String(decoding: utf8, as: UTF8.self)) }

    package func finish() -> WriteFailure? { failure }
}

/// A write that did not reach its file: disk full, a closed pipe, an I/O error.
package struct WriteFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The system's words for it: "No space left on device".
    var reason: String

    package init(reason: String) {
        self.reason = reason
    }

    /// The failure `errno` describes.
    package init(errno code: Int32) {
        reason = String(cString: strerror(code))
    }

    package var description: String { reason }
}

/// Writes to a file descriptor, retrying short and interrupted writes. The first failure is
/// kept (see `failure`) and nothing more is written: `agg` exits 74 when its output was lost.
package struct FileDescriptorSink: TextSink {
    let descriptor: Int32
    /// Shared by every copy of this sink.
    private let state = WriteState()

    package init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    package var failure: WriteFailure? { state.failure.withLock { $0 } }

    package func write(_ text: String) {
        state.failure.withLock { failure in
            guard failure == nil else { return }
            // The text's own bytes, not a copy: `agg quote --all` writes hundreds of kilobytes.
            var text = text
            failure = text.withUTF8 { Self.writeAll(UnsafeRawBufferPointer($0), to: descriptor) }
        }
    }

    package func write(utf8: [UInt8]) {
        state.failure.withLock { failure in
            guard failure == nil else { return }
            failure = utf8.withUnsafeBytes { Self.writeAll($0, to: descriptor) }
        }
    }

    /// Closes the descriptor; its first failure, or the close's own.
    package func finish() -> WriteFailure? {
        state.failure.withLock { failure in
            if failure == nil, close(descriptor) != 0, errno != EINTR {
                failure = WriteFailure(errno: errno)
            }
            return failure
        }
    }

    private static func writeAll(_ buffer: UnsafeRawBufferPointer, to descriptor: Int32) -> WriteFailure? {
        guard let base = buffer.baseAddress else { return nil }
        var offset = 0
        while offset < buffer.count {
            #if canImport(Glibc)
                let written = Glibc.write(descriptor, base + offset, buffer.count - offset)
            #else
                let written = Darwin.write(descriptor, base + offset, buffer.count - offset)
            #endif
            if written < 0 {
                let code = errno
                if code == EINTR { continue }
                if code == EAGAIN || code == EWOULDBLOCK {
                    // A descriptor left non-blocking by the caller: wait until it drains.
                    var ready = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                    _ = poll(&ready, 1, -1)
                    continue
                }
                return WriteFailure(errno: code)
            }
            offset += written
        }
        return nil
    }
}

/// The first failure of a `FileDescriptorSink`; a class, so that copies of the sink share it.
private final class WriteState: Sendable {
    let failure = Mutex<WriteFailure?>(nil)
}

/// Collects everything written, for tests.
package final class BufferSink: TextSink {
    private let buffer = Mutex("")

    package init() {}

    package func write(_ text: String) {
        buffer.withLock { $0 += text }
    }

    /// Everything written so far.
    var text: String { buffer.withLock { $0 } }
}

/// Where output goes and what kind of terminal, if any, is attached.
package struct Console: Sendable {
    package var standardOutput: any TextSink
    package var standardError: any TextSink
    /// Whether standard output is a terminal.
    package var outputIsTerminal: Bool
    /// Whether standard error is a terminal (for progress lines).
    package var errorIsTerminal: Bool
    /// Columns available for a table: the terminal's width, then `$COLUMNS`, then 80; where
    /// standard output is not a terminal and `$COLUMNS` is unset, `Console.unlimitedWidth`, so
    /// that a table sent to a pipe or a file keeps every column.
    package var width: Int

    /// The width of a table that is never cut.
    static let unlimitedWidth = Int.max
    /// The width a drawing takes when nothing sets one.
    static let defaultWidth = 80

    package init(
        standardOutput: any TextSink, standardError: any TextSink, outputIsTerminal: Bool = false,
        errorIsTerminal: Bool = false, width: Int = 80
    ) {
        self.standardOutput = standardOutput
        self.standardError = standardError
        self.outputIsTerminal = outputIsTerminal
        self.errorIsTerminal = errorIsTerminal
        self.width = width
    }

    /// The width for output that goes to no terminal: `$COLUMNS` when set, else unlimited.
    package static func pipeWidth(environment: [String: String]) -> Int {
        if let columns = environment["COLUMNS"].flatMap({ Int($0) }), columns > 0 { return columns }
        return unlimitedWidth
    }

    /// The width a drawing (a chart) fills: `width`, or `defaultWidth` when that is unlimited.
    var drawingWidth: Int {
        width == Self.unlimitedWidth ? Self.defaultWidth : width
    }

    /// Writes `text` and a newline to standard output.
    package func print(_ text: String) {
        standardOutput.write(text + "\n")
    }

    /// Writes one line to standard error. Control characters in `text` (a venue's message may
    /// hold any) are shown escaped, so the line stays one line and cannot drive the terminal.
    package func printError(_ text: String) {
        standardError.write(TerminalText.escape(text) + "\n")
    }
}
