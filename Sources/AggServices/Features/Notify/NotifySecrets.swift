import AggCore

#if canImport(Glibc)
    @preconcurrency import Glibc
#endif

/// The secrets `--notify` destinations need, read from the environment or files, never from the
/// command line (where `ps` shows them): the Telegram bot token, the Discord webhook token and
/// the webhooks' signing secret. No description of this type shows them.
package struct NotifySecrets: Sendable, CustomStringConvertible {
    /// `AGG_TELEGRAM_TOKEN`, else the file `AGG_TELEGRAM_TOKEN_FILE` names.
    package var telegramToken: String?
    /// `AGG_DISCORD_TOKEN`, else the file `AGG_DISCORD_TOKEN_FILE` names.
    package var discordToken: String?
    /// The file `--notify-secret-file` (or the config file's `notifySecretFile`) names: the key
    /// of every webhook's `X-Agg-Signature`.
    package var webhookSecret: [UInt8]?

    package init(telegramToken: String? = nil, discordToken: String? = nil, webhookSecret: [UInt8]? = nil) {
        self.telegramToken = telegramToken
        self.discordToken = discordToken
        self.webhookSecret = webhookSecret
    }

    package var description: String { "NotifySecrets(***)" }

    /// Every secret, to hide wherever a text could carry one (an error, an answer's preview).
    var all: [String] {
        [telegramToken, discordToken, webhookSecret.map { String(decoding: $0, as: UTF8.self) }]
            .compactMap { $0 }.filter { $0.count >= 4 }
    }

    /// The secrets `destinations` need: each one read, or a usage error naming where it was
    /// looked for (never what it holds).
    package static func load(
        for destinations: [NotifyDestination], secretFile: String?, environment: [String: String]
    ) throws(AggError) -> NotifySecrets {
        var secrets = NotifySecrets()
        for destination in destinations {
            switch destination.kind {
            case .telegram where secrets.telegramToken == nil:
                secrets.telegramToken = try token(
                    "AGG_TELEGRAM_TOKEN", for: destination, environment: environment, what: "the bot token")
            case .discord where secrets.discordToken == nil:
                secrets.discordToken = try token(
                    "AGG_DISCORD_TOKEN", for: destination, environment: environment, what: "the webhook's token")
            default: break
            }
        }
        if let secretFile {
            guard destinations.contains(where: { if case .webhook = $0.kind { true } else { false } }) else {
                throw .usage("--notify-secret-file signs webhooks: give a webhook (https://...) with --notify")
            }
            switch read(secretFile) {
            case .success(let bytes):
                let secret = Array(trimmingLineEnd(bytes))
                guard !secret.isEmpty else { throw .usage("--notify-secret-file '\(secretFile)': the file is empty") }
                secrets.webhookSecret = secret
            case .failure(let failure):
                throw .usage("--notify-secret-file '\(secretFile)': cannot read it: \(failure)")
            }
        }
        return secrets
    }

    /// `variable`'s value, else the content of the file `<variable>_FILE` names (without its
    /// final line break); checked to be one URL path segment of token characters.
    private static func token(
        _ variable: String, for destination: NotifyDestination, environment: [String: String], what: String
    ) throws(AggError) -> String {
        let source: String
        let text: String
        if let value = environment[variable], !value.isEmpty {
            source = variable
            text = value
        } else if let path = environment[variable + "_FILE"], !path.isEmpty {
            source = "the file \(variable)_FILE names (\(path))"
            switch read(path) {
            case .success(let bytes): text = String(decoding: trimmingLineEnd(bytes), as: UTF8.self)
            case .failure(let failure):
                throw .usage("--notify \(destination): cannot read \(source): \(failure)")
            }
        } else {
            throw .usage("--notify \(destination) needs \(what) in \(variable) or in the file \(variable)_FILE names")
        }
        let allowed = text.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: ":"), UInt8(ascii: "_"), UInt8(ascii: "-"),
                UInt8(ascii: "."):
                true
            default: false
            }
        }
        guard !text.isEmpty, allowed else {
            throw .usage("--notify \(destination): \(what) in \(source) is not a token (letters, digits, : _ - .)")
        }
        return text
    }

    private static func trimmingLineEnd(_ bytes: [UInt8]) -> ArraySlice<UInt8> {
        var slice = bytes[...]
        while let last = slice.last, last == UInt8(ascii: "\n") || last == UInt8(ascii: "\r") { slice.removeLast() }
        return slice
    }

    /// The whole content of the file at `path` (at most 64 KiB).
    private static func read(_ path: String) -> Result<[UInt8], WriteFailure> {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return .failure(WriteFailure(errno: errno)) }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while bytes.count < 65_536 {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return .failure(WriteFailure(errno: errno))
            }
            if count == 0 { break }
            bytes += buffer[..<count]
        }
        return .success(bytes)
    }
}
