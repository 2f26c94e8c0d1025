import Synchronization

#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Somewhere text goes: a file descriptor, or a buffer in tests.
public protocol TextSink: Sendable {
    func write(_ text: String)
}

/// Writes to a file descriptor, retrying short writes.
public struct FileDescriptorSink: TextSink {
    public let descriptor: Int32

    public init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    public func write(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        bytes.withUnsafeMutableBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            while offset < buffer.count {
                #if canImport(Glibc)
                    let written = Glibc.write(descriptor, base + offset, buffer.count - offset)
                #else
                    let written = Darwin.write(descriptor, base + offset, buffer.count - offset)
                #endif
                if written < 0 {
                    if errno == EINTR { continue }
                    return  // a closed pipe: nothing more can be said
                }
                offset += written
            }
        }
    }
}

/// Collects everything written, for tests.
public final class BufferSink: TextSink {
    private let buffer = Mutex("")

    public init() {}

    public func write(_ text: String) {
        buffer.withLock { $0 += text }
    }

    /// Everything written so far.
    public var text: String { buffer.withLock { $0 } }
}

/// Where output goes and what kind of terminal, if any, is attached.
public struct Console: Sendable {
    public var standardOutput: any TextSink
    public var standardError: any TextSink
    /// Whether standard output is a terminal.
    public var outputIsTerminal: Bool
    /// Whether standard error is a terminal (for progress lines).
    public var errorIsTerminal: Bool
    /// Columns available for a table: the terminal's width, then `$COLUMNS`, then 80; where
    /// standard output is not a terminal and `$COLUMNS` is unset, `Console.unlimitedWidth`, so
    /// that a table sent to a pipe or a file keeps every column.
    public var width: Int

    /// The width of a table that is never cut.
    public static let unlimitedWidth = Int.max
    /// The width a drawing takes when nothing sets one.
    public static let defaultWidth = 80

    public init(
        standardOutput: any TextSink, standardError: any TextSink, outputIsTerminal: Bool = false,
        errorIsTerminal: Bool = false, width: Int = 80
    ) {
        self.standardOutput = standardOutput
        self.standardError = standardError
        self.outputIsTerminal = outputIsTerminal
        self.errorIsTerminal = errorIsTerminal
        self.width = width
    }

    /// The process's own standard output and error.
    public static func standard(environment: [String: String]) -> Console {
        let outputIsTerminal = isatty(1) == 1
        return Console(
            standardOutput: FileDescriptorSink(descriptor: 1),
            standardError: FileDescriptorSink(descriptor: 2),
            outputIsTerminal: outputIsTerminal,
            errorIsTerminal: isatty(2) == 1,
            width: outputIsTerminal ? terminalWidth(environment: environment) : pipeWidth(environment: environment)
        )
    }

    /// The width for output that goes to no terminal: `$COLUMNS` when set, else unlimited.
    public static func pipeWidth(environment: [String: String]) -> Int {
        if let columns = environment["COLUMNS"].flatMap({ Int($0) }), columns > 0 { return columns }
        return unlimitedWidth
    }

    /// The width a drawing (a chart) fills: `width`, or `defaultWidth` when that is unlimited.
    public var drawingWidth: Int {
        width == Self.unlimitedWidth ? Self.defaultWidth : width
    }

    /// The width of the terminal on stdout (or stderr), then `$COLUMNS`, then 80.
    public static func terminalWidth(environment: [String: String]) -> Int {
        var size = winsize()
        for descriptor: Int32 in [1, 2]
        where ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0 && size.ws_col > 0 {
            return Int(size.ws_col)
        }
        if let columns = environment["COLUMNS"].flatMap({ Int($0) }), columns > 0 { return columns }
        return 80
    }

    /// Writes `text` and a newline to standard output.
    public func print(_ text: String) {
        standardOutput.write(text + "\n")
    }

    /// Writes one line to standard error. Control characters in `text` (a venue's message may
    /// hold any) are shown escaped, so the line stays one line and cannot drive the terminal.
    public func printError(_ text: String) {
        standardError.write(TerminalText.escape(text) + "\n")
    }
}
