import AggCore
import Dispatch

#if canImport(Glibc)
    @preconcurrency import Glibc
#endif

/// `--alert-log FILE`: the file alerts are appended to, one JSON object a line. Each line is
/// written whole and synced to disk (`fsync`) before the loop goes on; a failed write or sync
/// is reported, and the command then stops with exit 74 (an alert that cannot be logged is lost
/// output).
///
/// The descriptor is owned here and closed in `deinit`. Writes run on a queue of their own, off
/// the cooperative pool, since a sync can wait on the disk.
package final class AlertLogFile: Sendable {
    let path: String
    private let descriptor: Int32
    private let queue = DispatchQueue(label: "agg.alert-log")

    /// Opens (creating it, mode 0644) `path` for appending, or throws a usage error naming it.
    package init(path: String) throws(AggError) {
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw .usage("--alert-log '\(path)': cannot open it: \(WriteFailure(errno: errno))")
        }
        self.path = path
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    /// Appends `lines` (each ending in a line break) and syncs; the failure, if any.
    func append(_ lines: [String]) async -> WriteFailure? {
        let descriptor = self.descriptor
        let text = lines.joined()
        return await withCheckedContinuation { continuation in
            queue.async {
                continuation.resume(returning: Self.write(text, to: descriptor))
            }
        }
    }

    private static func write(_ text: String, to descriptor: Int32) -> WriteFailure? {
        var text = text
        let failure: WriteFailure? = text.withUTF8 { bytes in
            guard let base = bytes.baseAddress else { return nil }
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.write(descriptor, base + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return WriteFailure(errno: errno)
                }
                offset += written
            }
            return nil
        }
        if let failure { return failure }
        while fsync(descriptor) != 0 {
            if errno != EINTR { return WriteFailure(errno: errno) }
        }
        return nil
    }
}
