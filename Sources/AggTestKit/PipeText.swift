import Foundation
import Synchronization

/// What a running child process has written to a pipe so far, read on a thread of its own (off
/// the cooperative pool), for end-to-end tests of long-running commands.
public final class PipeText: Sendable {
    private let text = Mutex("")

    public init(_ pipe: Pipe) {
        let handle = pipe.fileHandleForReading
        Thread.detachNewThread { [self] in
            while true {
                let data = handle.availableData
                if data.isEmpty { break }
                text.withLock { $0 += String(decoding: data, as: UTF8.self) }
            }
        }
    }

    /// Everything read so far.
    public var value: String { text.withLock { $0 } }

    /// Waits up to `seconds` for `condition` to hold of what was read; whether it does.
    public func wait(seconds: Double, until condition: (String) -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline {
            if condition(value) { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return condition(value)
    }
}
