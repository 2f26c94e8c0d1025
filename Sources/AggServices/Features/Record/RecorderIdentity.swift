import AggCore
import AggStore
import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// Who holds a recorder's venue leases: `host:ID`, where ID is a random id kept in the data
/// folder (`recorder-id`), not the process id. A recorder killed with `kill -9` and started again
/// on the same host with the same data folder is the same holder, and renews its own leases at
/// once instead of waiting for them to expire.
///
/// While a recorder runs it holds an exclusive `flock` on `recorder-id`; a second recorder started
/// on the same folder meanwhile is another holder (`host:ID:PID`), so that two live recorders
/// never share leases. The kernel drops the lock when its process dies, however it dies.
package final class RecorderIdentity: Sendable {
    /// The lease holder's name.
    package let holder: String
    /// The locked file's descriptor, closed (unlocked) in `deinit`; -1 when there is none.
    private let descriptor: Int32

    private init(holder: String, descriptor: Int32) {
        self.holder = holder
        self.descriptor = descriptor
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// `host:PID`, for a recorder without a data folder that can keep an id.
    static func processOnly(host: String = hostName(), pid: Int32 = getpid()) -> RecorderIdentity {
        RecorderIdentity(holder: "\(host):\(pid)", descriptor: -1)
    }

    /// The file that keeps the id, in `folder`.
    static func file(in folder: String) -> String {
        (folder.hasSuffix("/") ? folder : folder + "/") + "recorder-id"
    }

    /// The identity for a recorder whose data folder is `folder`: the id in `recorder-id`,
    /// written there when missing. When the folder cannot keep one, the process id stands in
    /// (leases then wait for their expiry after a restart, as before).
    static func claim(folder: String, host: String = hostName(), pid: Int32 = getpid()) -> RecorderIdentity {
        let path = file(in: folder)
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return processOnly(host: host, pid: pid) }
        guard let id = readOrWriteID(descriptor) else {
            close(descriptor)
            return processOnly(host: host, pid: pid)
        }
        if flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            // Another live recorder uses this folder: be another holder.
            close(descriptor)
            return RecorderIdentity(holder: "\(host):\(id):\(pid)", descriptor: -1)
        }
        return RecorderIdentity(holder: "\(host):\(id)", descriptor: descriptor)
    }

    /// The id the file holds (32 hex digits), or a new one written into it when it holds none.
    private static func readOrWriteID(_ descriptor: Int32) -> String? {
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, 64, 0) }
        let text = count > 0 ? String(decoding: buffer.prefix(count), as: UTF8.self) : ""
        let existing = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        if existing.utf8.count == 32, existing.utf8.allSatisfy({ isHexDigit($0) }) { return existing }
        let id = UUID().uuidString.lowercased().filter { $0 != "-" }
        let line = Array((id + "\n").utf8)
        guard ftruncate(descriptor, 0) == 0,
            line.withUnsafeBytes({ pwrite(descriptor, $0.baseAddress, line.count, 0) }) == line.count
        else { return nil }
        return id
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x61...0x66).contains(byte)
    }

    /// This machine's host name, or `localhost` when it has none.
    static func hostName() -> String {
        var name = [CChar](repeating: 0, count: 256)
        guard gethostname(&name, name.count - 1) == 0 else { return "localhost" }
        return String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

extension RecorderIdentity {
    /// Who holds this recorder's venue leases: the host and the recorder id of the data folder
    /// `environment` selects; `host:PID` when there is no usable folder. Keep it alive, with its
    /// lock, for the whole run.
    package static func claim(environment: [String: String]) -> RecorderIdentity {
        guard let location = try? StoreLocation.resolve(environment: environment),
            (try? location.createDirectory()) != nil
        else { return RecorderIdentity.processOnly() }
        return RecorderIdentity.claim(folder: location.directory)
    }
}
