import AggCore
import AggJSON

/// Makes the HTTP request that carries a `NotifyMessage` to a destination, in the shape its
/// receiver documents:
/// - a webhook: `POST URL`, the message's JSON, `Content-Type: application/json`, and with a
///   secret `X-Agg-Signature: sha256=<hex HMAC-SHA256(secret, body)>`;
/// - Telegram: `POST <base>/bot<TOKEN>/sendMessage`, `{"chat_id":"…","text":"…"}` (no parse
///   mode, so venue text needs no escaping beyond JSON's), the link on a line of its own;
/// - Discord: `POST <base>/api/webhooks/<ID>/<TOKEN>`, `{"content":"…","embeds":[…],
///   "allowed_mentions":{"parse":[]}}`, Markdown characters of the text escaped and no mention
///   ever pinging anyone.
package struct NotifyRequests: Sendable {
    /// The Bot API's base URL: `AGG_TELEGRAM_URL`, else `https://api.telegram.org`.
    package var telegramBase: String
    /// Discord's base URL: `AGG_DISCORD_URL`, else `https://discord.com`.
    package var discordBase: String
    package var secrets: NotifySecrets
    /// Each attempt's timeouts.
    package var timeouts: HTTPTimeouts

    package static let defaultTelegramBase = "https://api.telegram.org"
    package static let defaultDiscordBase = "https://discord.com"

    package init(secrets: NotifySecrets, environment: [String: String], timeouts: HTTPTimeouts = .standard) {
        func base(_ variable: String, _ fallback: String) -> String {
            var text = environment[variable].flatMap { $0.isEmpty ? nil : $0 } ?? fallback
            while text.hasSuffix("/") { text.removeLast() }
            return text
        }
        telegramBase = base("AGG_TELEGRAM_URL", Self.defaultTelegramBase)
        discordBase = base("AGG_DISCORD_URL", Self.defaultDiscordBase)
        self.secrets = secrets
        self.timeouts = timeouts
    }

    /// The request for `message` to `destination`.
    package func request(_ message: NotifyMessage, to destination: NotifyDestination) -> HTTPRequest {
        let json = HTTPHeader(name: "Content-Type", value: "application/json")
        switch destination.kind {
        case .webhook(let url):
            let body = Array(message.json.utf8)
            var headers = [json]
            if let secret = secrets.webhookSecret {
                headers.append(
                    HTTPHeader(name: NotifySignature.header, value: NotifySignature.value(secret: secret, body: body)))
            }
            return HTTPRequest(url: url, headers: headers, timeouts: timeouts, method: .post, body: body)
        case .telegram(let chat):
            return HTTPRequest(
                url: "\(telegramBase)/bot\(secrets.telegramToken ?? "")/sendMessage", headers: [json],
                timeouts: timeouts, method: .post, body: Self.telegramBody(message, chat: chat))
        case .discord(let id):
            return HTTPRequest(
                url: "\(discordBase)/api/webhooks/\(id)/\(secrets.discordToken ?? "")", headers: [json],
                timeouts: timeouts, method: .post, body: Self.discordBody(message))
        }
    }

    /// `{"chat_id":"…","text":"…"}`: plain text (no `parse_mode`), the link on its own line.
    static func telegramBody(_ message: NotifyMessage, chat: String) -> [UInt8] {
        var writer = JSONWriter(capacity: 256)
        writer.beginObject()
        writer.member("chat_id", string: chat)
        writer.member("text", string: message.text + (message.link.map { "\n" + $0 } ?? ""))
        writer.endObject()
        return writer.bytes
    }

    /// `{"content":"…","embeds":[{"title","description","url"?,"timestamp","fields"}],
    /// "allowed_mentions":{"parse":[]}}`.
    static func discordBody(_ message: NotifyMessage) -> [UInt8] {
        var writer = JSONWriter(capacity: 512)
        writer.beginObject()
        writer.member("content", string: markdownEscaped(message.text))
        writer.key("embeds")
        writer.beginArray()
        writer.beginObject()
        writer.member("title", string: markdownEscaped(message.title))
        if let link = message.link { writer.member("url", string: link) }
        writer.key("timestamp")
        writer.unescapedString { message.time.appendISO8601(to: &$0) }
        writer.key("fields")
        writer.beginArray()
        for field in message.fields {
            writer.beginObject()
            writer.member("name", string: markdownEscaped(field.name))
            writer.member("value", string: markdownEscaped(field.value))
            writer.member("inline", bool: true)
            writer.endObject()
        }
        writer.endArray()
        writer.endObject()
        writer.endArray()
        writer.key("allowed_mentions")
        writer.beginObject()
        writer.key("parse")
        writer.beginArray()
        writer.endArray()
        writer.endObject()
        writer.endObject()
        return writer.bytes
    }

    /// `text` with Discord's Markdown characters (`\ * _ ~ ` | > [ ]`) escaped by a backslash,
    /// so that venue text shows as written (mentions are off through `allowed_mentions`).
    static func markdownEscaped(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text {
            if "\\*_~`|>[]".contains(character) { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }
}
