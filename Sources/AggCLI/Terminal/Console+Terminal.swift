import AggServices

#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension Console {
    /// The process's own standard output and error.
    package static func standard(environment: [String: String]) -> Console {
        let outputIsTerminal = isatty(1) == 1
        return Console(
            standardOutput: FileDescriptorSink(descriptor: 1),
            standardError: FileDescriptorSink(descriptor: 2),
            outputIsTerminal: outputIsTerminal,
            errorIsTerminal: isatty(2) == 1,
            width: outputIsTerminal ? terminalWidth(environment: environment) : pipeWidth(environment: environment)
        )
    }

    /// The width of the terminal on stdout (or stderr), then `$COLUMNS`, then 80.
    static func terminalWidth(environment: [String: String]) -> Int {
        var size = winsize()
        for descriptor: Int32 in [1, 2]
        where ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0 && size.ws_col > 0 {
            return Int(size.ws_col)
        }
        if let columns = environment["COLUMNS"].flatMap({ Int($0) }), columns > 0 { return columns }
        return 80
    }
}
