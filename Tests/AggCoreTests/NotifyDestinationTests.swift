import AggCore
import Testing

@Suite("--notify destinations: the grammar, and no secret on the command line")
struct NotifyDestinationTests {
    @Test(
        "each kind parses, and is named without its secret",
        arguments: [
            ("https://hooks.example.com/agg/secret-path", "https://hooks.example.com/***"),
            ("https://hooks.example.com", "https://hooks.example.com"),
            ("HTTPS://hooks.example.com:8443/x?token=1", "HTTPS://hooks.example.com:8443/***"),
            ("http://127.0.0.1:8080/hook", "http://127.0.0.1:8080/***"),
            ("http://localhost/hook", "http://localhost/***"),
            ("http://[::1]:9/hook", "http://[::1]:9/***"),
            ("telegram://-1001234567890", "telegram://-1001234567890"),
            ("telegram://@agg_alerts", "telegram://@agg_alerts"),
            ("discord://112233445566", "discord://112233445566"),
        ])
    func parses(text: String, shown: String) throws {
        #expect(try NotifyDestination.parse(text).description == shown)
    }

    @Test(
        "a bad or secret-bearing destination is a usage error that never repeats the secret",
        arguments: [
            (
                "ftp://example.com/x",
                "--notify 'ftp://example.com/***': expected https://HOST/PATH, telegram://CHAT_ID or discord://WEBHOOK_ID"
            ),
            (
                "example.com/hook",
                "--notify 'example.com/hook': expected https://HOST/PATH, telegram://CHAT_ID or discord://WEBHOOK_ID"
            ),
            (
                "http://example.com/hook",
                "--notify 'http://example.com/***': a webhook is https:// (http:// only to a loopback host, for tests)"
            ),
            (
                "https://user:pw@example.com/hook",
                "--notify 'https://***@example.com/***': a user or password in the URL would show in ps; put the URL in the config file"
            ),
            (
                "https://api.telegram.org/bot123:SECRET/sendMessage",
                "--notify 'https://api.telegram.org/***': a Bot API URL holds the bot token: give telegram://CHAT_ID and the token in AGG_TELEGRAM_TOKEN"
            ),
            (
                "https://discord.com/api/webhooks/1/SECRET",
                "--notify 'https://discord.com/***': a Discord webhook's token is a secret: give discord://WEBHOOK_ID, and the token in AGG_DISCORD_TOKEN or the file AGG_DISCORD_TOKEN_FILE names"
            ),
            (
                "discord://1/SECRET",
                "--notify 'discord://1/***': a Discord webhook's token is a secret: give discord://WEBHOOK_ID, and the token in AGG_DISCORD_TOKEN or the file AGG_DISCORD_TOKEN_FILE names"
            ),
            ("discord://abc", "--notify 'discord://abc': expected discord://WEBHOOK_ID, the webhook's number"),
            (
                "telegram://12a",
                "--notify 'telegram://12a': expected telegram://CHAT_ID, a chat id such as -1001234567890 or @channel"
            ),
            (
                "telegram://",
                "--notify 'telegram://': expected telegram://CHAT_ID, a chat id such as -1001234567890 or @channel"
            ),
            ("https:///path", "--notify 'https:///***': expected a URL such as https://example.com/hook"),
        ])
    func refuses(text: String, message: String) {
        #expect(throws: AggError.usage(message)) { try NotifyDestination.parse(text) }
    }
}

@Suite("--notify lists: a comma starts a destination only before a scheme")
struct NotifyDestinationListTests {
    @Test("the config file's joined array splits back into its destinations; a URL keeps its commas")
    func split() {
        #expect(
            NotifyDestination.split("https://a.example/x?k=1,2,telegram://5,discord://7")
                == ["https://a.example/x?k=1,2", "telegram://5", "discord://7"])
        #expect(NotifyDestination.split("telegram://5") == ["telegram://5"])
    }
}
