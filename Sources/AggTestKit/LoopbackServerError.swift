import Glibc

/// A socket call failed while starting the loopback server.
public struct LoopbackServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The call that failed, such as `bind`.
    public var operation: String
    /// The `errno` it set.
    public var code: Int32

    /// Creates an error for `operation` with `errno` value `code`.
    public init(operation: String, code: Int32) {
        self.operation = operation
        self.code = code
    }

    /// The call and the system's text for the error.
    public var description: String {
        "loopback server: \(operation) failed: \(String(cString: strerror(code)))"
    }
}
