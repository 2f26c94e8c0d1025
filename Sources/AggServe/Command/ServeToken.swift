import AggCore
import AggServices

#if canImport(Glibc)
    import Glibc
#endif

/// Where `agg serve`'s bearer token comes from: `--token-file PATH`, `--token` or `AGG_TOKEN`,
/// each checked the same way (16 to 256 printable ASCII characters, no spaces) and never
/// echoed in an error, since a near-miss of a secret is still a secret.
package enum ServeToken {
    /// What a token is, in words.
    static let expected = "a token of 16 to 256 printable characters"

    /// Why no token could be taken: the message and the exit code.
    package struct Failure: Error, Equatable {
        var message: String
        var exitCode: ExitCode

        package init(message: String, exitCode: ExitCode) {
            self.message = message
            self.exitCode = exitCode
        }
    }

    /// The token, and the warning to print once (for `--token`, which `ps` shows).
    package struct Resolved: Equatable {
        var token: String?
        var warning: String?
    }

    static func isValid(_ text: String) -> Bool {
        (16...256).contains(text.utf8.count) && text.utf8.allSatisfy { (0x21...0x7E).contains($0) }
    }

    /// `--token`'s parser: refuses without repeating the value.
    static func parseFlag(_ text: String) throws(AggError) -> String {
        guard isValid(text) else { throw .usage("invalid --token: expected \(expected) (the value is not shown)") }
        return text
    }

    /// The token from the flags or the environment: `--token-file` or `--token` (not both),
    /// else `AGG_TOKEN`.
    static func resolve(flag: String?, file: String?, environment: [String: String]) -> Result<
        Resolved, Failure
    > {
        if flag != nil, file != nil {
            return .failure(Failure(message: "give one of --token and --token-file, not both", exitCode: .usage))
        }
        if let file {
            return read(file).map { Resolved(token: $0, warning: nil) }
        }
        if let flag {
            return .success(
                Resolved(
                    token: flag,
                    warning: "--token is visible to other users in ps; use --token-file PATH or AGG_TOKEN"))
        }
        guard let text = environment["AGG_TOKEN"], !text.isEmpty else { return .success(Resolved()) }
        guard isValid(text) else {
            return .failure(
                Failure(message: "invalid AGG_TOKEN: expected \(expected) (the value is not shown)", exitCode: .usage))
        }
        return .success(Resolved(token: text))
    }

    /// The file's token: its content without one final line break.
    static func read(_ path: String) -> Result<String, Failure> {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            return .failure(
                Failure(
                    message: "cannot read --token-file \(path): \(String(cString: strerror(errno)))",
                    exitCode: .configuration))
        }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1024)
        while bytes.count <= 1024 {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else {
                return .failure(
                    Failure(
                        message: "cannot read --token-file \(path): \(String(cString: strerror(errno)))",
                        exitCode: .configuration))
            }
            if count == 0 { break }
            bytes += chunk[..<count]
        }
        if bytes.last == 0x0A { bytes.removeLast() }
        if bytes.last == 0x0D { bytes.removeLast() }
        let text = String(decoding: bytes, as: UTF8.self)
        guard isValid(text) else {
            return .failure(
                Failure(
                    message: "--token-file \(path): expected \(expected) on one line (the content is not shown)",
                    exitCode: .configuration))
        }
        return .success(text)
    }
}
