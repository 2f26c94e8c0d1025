/// One `--notify` destination: where alerts are sent over HTTP (docs/alerts.md).
///
/// - `https://HOST/PATH`: a webhook that receives each alert's JSON (POST). `http://` is taken
///   only for a loopback host (127.0.0.1, localhost, [::1]): for tests and a local relay.
/// - `telegram://CHAT_ID`: a Telegram chat (a number such as `-1001234567890`, or `@channel`);
///   the bot token comes from the environment or a file, never from the command line.
/// - `discord://WEBHOOK_ID`: a Discord webhook; its token comes from the environment or a file.
///
/// Secrets are refused where they would show in `ps`: a URL with a user or password, a Telegram
/// Bot API URL (it holds the token), a Discord webhook URL with its token.
public struct NotifyDestination: Sendable, Hashable, CustomStringConvertible {
    /// What kind of receiver, with what identifies it.
    public enum Kind: Sendable, Hashable {
        /// A webhook at the URL, as given.
        case webhook(url: String)
        /// A Telegram chat.
        case telegram(chat: String)
        /// A Discord webhook, by its id.
        case discord(id: String)
    }

    public let kind: Kind

    public init(kind: Kind) {
        self.kind = kind
    }

    /// The grammar in words, for messages.
    public static let grammar = "https://HOST/PATH, telegram://CHAT_ID or discord://WEBHOOK_ID"

    /// Parses one `--notify` value; a usage error quoting it (redacted) otherwise.
    public static func parse(_ text: String) throws(AggError) -> NotifyDestination {
        func failure(_ detail: String) -> AggError {
            .usage("--notify '\(redacted(text))': \(detail)")
        }
        let lowered = text.lowercased()
        if lowered.hasPrefix("telegram://") {
            let chat = String(text.dropFirst("telegram://".count))
            guard isChat(chat) else {
                throw failure("expected telegram://CHAT_ID, a chat id such as -1001234567890 or @channel")
            }
            return NotifyDestination(kind: .telegram(chat: chat))
        }
        if lowered.hasPrefix("discord://") {
            let id = String(text.dropFirst("discord://".count))
            if id.contains("/") {
                throw failure(
                    "a Discord webhook's token is a secret: give discord://WEBHOOK_ID, and the token in "
                        + "AGG_DISCORD_TOKEN or the file AGG_DISCORD_TOKEN_FILE names")
            }
            guard !id.isEmpty, id.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
                throw failure("expected discord://WEBHOOK_ID, the webhook's number")
            }
            return NotifyDestination(kind: .discord(id: id))
        }
        let secure = lowered.hasPrefix("https://")
        guard secure || lowered.hasPrefix("http://") else { throw failure("expected \(grammar)") }
        let rest = text.dropFirst(secure ? "https://".count : "http://".count)
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard !authority.isEmpty, !text.utf8.contains(where: { $0 <= 0x20 || $0 == 0x7F }) else {
            throw failure("expected a URL such as https://example.com/hook")
        }
        if authority.contains("@") {
            throw failure("a user or password in the URL would show in ps; put the URL in the config file")
        }
        let host = Self.host(of: authority).lowercased()
        if !secure, !["127.0.0.1", "localhost", "[::1]"].contains(host) {
            throw failure("a webhook is https:// (http:// only to a loopback host, for tests)")
        }
        if host == "api.telegram.org" {
            throw failure(
                "a Bot API URL holds the bot token: give telegram://CHAT_ID and the token in AGG_TELEGRAM_TOKEN")
        }
        if ["discord.com", "discordapp.com"].contains(host), rest.contains("/webhooks/") {
            throw failure(
                "a Discord webhook's token is a secret: give discord://WEBHOOK_ID, and the token in "
                    + "AGG_DISCORD_TOKEN or the file AGG_DISCORD_TOKEN_FILE names")
        }
        return NotifyDestination(kind: .webhook(url: text))
    }

    /// The destinations of a list joined by commas (the config file's `notify` array reaches the
    /// parser so): a comma starts a new one only before a scheme, so that a webhook URL may hold
    /// commas of its own.
    public static func split(_ text: String) -> [String] {
        var parts: [String] = []
        for piece in text.split(separator: ",", omittingEmptySubsequences: false) {
            let lowered = piece.lowercased()
            let starts = ["https://", "http://", "telegram://", "discord://"].contains { lowered.hasPrefix($0) }
            if starts || parts.isEmpty {
                parts.append(String(piece))
            } else {
                parts[parts.count - 1] += "," + piece
            }
        }
        return parts
    }

    /// The destination as messages, logs and `agg config show` name it, without any secret: a
    /// webhook's scheme and host with its path hidden (`https://hooks.example.com/***`), a chat
    /// or a Discord webhook by its id.
    public var description: String {
        switch kind {
        case .webhook(let url): Self.redacted(url)
        case .telegram(let chat): "telegram://\(chat)"
        case .discord(let id): "discord://\(id)"
        }
    }

    /// `text` with everything after a URL's host hidden (`https://host:port/***`), and anything
    /// after the first `/` of a `telegram://` or `discord://` value; other text as it is.
    public static func redacted(_ text: String) -> String {
        guard let schemeEnd = text.range(of: "://") else { return text }
        let rest = text[schemeEnd.upperBound...]
        var authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if let at = authority.lastIndex(of: "@") { authority = "***@" + authority[authority.index(after: at)...] }
        let hidden = rest.count > rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }.count
        return String(text[..<schemeEnd.upperBound]) + authority + (hidden ? "/***" : "")
    }

    /// The host of `authority` (`host:port`, `[::1]:8080`).
    private static func host(of authority: Substring) -> String {
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            return String(authority[...close])
        }
        return String(authority.prefix { $0 != ":" })
    }

    /// A chat id: an optional `-` and digits, or `@` and a public channel's name.
    private static func isChat(_ text: String) -> Bool {
        if text.hasPrefix("@") {
            let name = text.utf8.dropFirst()
            return (5...32).contains(name.count)
                && name.allSatisfy { byte in
                    (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
                        || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_")
                }
        }
        let digits = text.hasPrefix("-") ? text.utf8.dropFirst() : text.utf8.dropFirst(0)
        return (1...20).contains(digits.count)
            && digits.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }
}
