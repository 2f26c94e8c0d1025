import AggCore
import AggTestKit
import Testing

@testable import AggServices

/// 2024-08-08T08:12:15Z.
private let start = Timestamp(millisecondsSince1970: 1_723_104_735_000)

private func premiumAlert(folded: Int = 0) -> Alert {
    Alert(
        time: start, rule: AlertRule(venue: nil, symbol: "BTC", condition: .threshold(.premium, .above, 3)),
        exchange: "upbit", reading: .number(decimal("3.12")), folded: folded,
        foldedSince: folded > 0 ? Timestamp(millisecondsSince1970: start.millisecondsSince1970 - 240_000) : nil)
}

private let secrets = NotifySecrets(
    telegramToken: "123456:ABC-telegram", discordToken: "discord-token_1", webhookSecret: Array("Jefe".utf8))

private func requests(_ secrets: NotifySecrets = secrets) -> NotifyRequests {
    NotifyRequests(secrets: secrets, environment: [:])
}

@Suite("notify: the request each destination gets, byte for byte")
struct NotifyPayloadTests {
    @Test("HMAC-SHA256 matches RFC 4231 test case 2 (key 'Jefe')")
    func hmacVector() {
        let mac = NotifySignature.hmacSHA256(
            key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8))
        #expect(NotifySignature.hex(mac) == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }

    @Test("a webhook gets --alert-log's object plus text, JSON, and the signature of those exact bytes")
    func webhook() throws {
        let destination = try NotifyDestination.parse("https://hooks.example.com/agg/7f3a")
        let request = requests().request(NotifyMessage(alert: premiumAlert()), to: destination)
        let body =
            #"{"time":"2024-08-08T08:12:15.000Z","rule":"BTC premium > 3%","exchange":"upbit","symbol":"BTC","field":"premium","value":"3.12","threshold":"3","text":"agg alert: upbit BTC premium 3.12% (rule BTC premium > 3%)"}"#
        #expect(request.method == .post)
        #expect(request.url == "https://hooks.example.com/agg/7f3a")
        #expect(String(decoding: request.body, as: UTF8.self) == body)
        #expect(request.headers.first { $0.name == "Content-Type" }?.value == "application/json")
        // Computed here independently of the shim's caller: HMAC(key "Jefe", body).
        let expected =
            "sha256="
            + NotifySignature.hex(NotifySignature.hmacSHA256(key: Array("Jefe".utf8), message: Array(body.utf8)))
        #expect(request.headers.first { $0.name == "X-Agg-Signature" }?.value == expected)
        let unsigned = requests(NotifySecrets()).request(NotifyMessage(alert: premiumAlert()), to: destination)
        #expect(!unsigned.headers.contains { $0.name == "X-Agg-Signature" })
    }

    @Test("a folded alert carries folded and foldedSince, and says them in its text")
    func folded() throws {
        let message = NotifyMessage(alert: premiumAlert(folded: 3))
        #expect(
            message.json
                == #"{"time":"2024-08-08T08:12:15.000Z","rule":"BTC premium > 3%","exchange":"upbit","symbol":"BTC","field":"premium","value":"3.12","threshold":"3","folded":3,"foldedSince":"2024-08-08T08:08:15.000Z","text":"agg alert: upbit BTC premium 3.12% (rule BTC premium > 3%) (+3 more since 08:08:15 UTC)"}"#
        )
    }

    @Test("Telegram: sendMessage on the Bot API with the token in the path, chat_id and plain text")
    func telegram() throws {
        let request = requests().request(
            NotifyMessage(alert: premiumAlert()), to: try NotifyDestination.parse("telegram://-1001234567890"))
        #expect(request.url == "https://api.telegram.org/bot123456:ABC-telegram/sendMessage")
        #expect(
            String(decoding: request.body, as: UTF8.self)
                == #"{"chat_id":"-1001234567890","text":"agg alert: upbit BTC premium 3.12% (rule BTC premium > 3%)"}"#)
        var linked = NotifyMessage(alert: premiumAlert())
        linked.link = "https://upbit.com/service_center/notice?id=1"
        #expect(
            String(decoding: NotifyRequests.telegramBody(linked, chat: "@aggalerts"), as: UTF8.self)
                == #"{"chat_id":"@aggalerts","text":"agg alert: upbit BTC premium 3.12% (rule BTC premium > 3%)\nhttps://upbit.com/service_center/notice?id=1"}"#
        )
        let local = NotifyRequests(secrets: secrets, environment: ["AGG_TELEGRAM_URL": "http://127.0.0.1:9/tg/"])
        #expect(
            local.request(NotifyMessage(alert: premiumAlert()), to: try NotifyDestination.parse("telegram://5")).url
                == "http://127.0.0.1:9/tg/bot123456:ABC-telegram/sendMessage")
    }

    @Test("Discord: the webhook URL with its token, content and one embed, Markdown escaped, no mentions")
    func discord() throws {
        let request = requests().request(
            NotifyMessage(alert: premiumAlert()), to: try NotifyDestination.parse("discord://112233"))
        #expect(request.url == "https://discord.com/api/webhooks/112233/discord-token_1")
        #expect(
            String(decoding: request.body, as: UTF8.self)
                == #"{"content":"agg alert: upbit BTC premium 3.12% (rule BTC premium \\> 3%)","embeds":[{"title":"upbit BTC: BTC premium \\> 3%","timestamp":"2024-08-08T08:12:15.000Z","fields":[{"name":"exchange","value":"upbit","inline":true},{"name":"symbol","value":"BTC","inline":true},{"name":"premium","value":"3.12%","inline":true},{"name":"threshold","value":"3%","inline":true}]}],"allowed_mentions":{"parse":[]}}"#
        )
        #expect(NotifyRequests.markdownEscaped("*a_b~`c|d>[e]\\ @everyone") == #"\*a\_b\~\`c\|d\>\[e\]\\ @everyone"#)
    }

    @Test("venue text that JSON must escape is escaped in every destination's body")
    func jsonEscaping() throws {
        var message = NotifyMessage(alert: premiumAlert())
        message.text = "quote \" back\\slash\nline \u{1B}[31m"
        let telegram = String(decoding: NotifyRequests.telegramBody(message, chat: "1"), as: UTF8.self)
        #expect(telegram == #"{"chat_id":"1","text":"quote \" back\\slash\nline \u001b[31m"}"#)
    }

    @Test("an event rule's alert reaches every destination: the webhook's object, Telegram's text, Discord's embed")
    func eventAlert() throws {
        let event = MarketEvent(
            venue: "upbit", kind: .listed, symbol: "ADA", detail: "에이다 / Cardano", firstObserved: start)
        let alert = Alert(
            time: start, rule: AlertRule(venue: "upbit", symbol: AlertRule.anySymbol, condition: .event(.listed)),
            exchange: "upbit", reading: .event(event))
        let message = NotifyMessage(alert: alert)
        let body: (NotifyDestination) -> String = {
            String(decoding: requests().request(message, to: $0).body, as: UTF8.self)
        }
        let webhook = body(try NotifyDestination.parse("https://hooks.example.com/agg"))
        #expect(
            webhook
                == #"{"time":"2024-08-08T08:12:15.000Z","rule":"upbit:* listed","exchange":"upbit","symbol":"ADA","field":"listed","value":"listed","threshold":null,"network":null,"detail":"에이다 / Cardano","firstObserved":"2024-08-08T08:12:15.000Z","text":"agg alert: upbit ADA listed: 에이다 / Cardano (rule upbit:* listed)"}"#
        )
        let telegram = body(try NotifyDestination.parse("telegram://5"))
        #expect(
            telegram
                == #"{"chat_id":"5","text":"agg alert: upbit ADA listed: 에이다 / Cardano (rule upbit:* listed)"}"#)
        let discord = body(try NotifyDestination.parse("discord://112233"))
        #expect(
            discord
                == #"{"content":"agg alert: upbit ADA listed: 에이다 / Cardano (rule upbit:\\* listed)","embeds":[{"title":"upbit ADA: upbit:\\* listed","timestamp":"2024-08-08T08:12:15.000Z","fields":[{"name":"exchange","value":"upbit","inline":true},{"name":"symbol","value":"ADA","inline":true},{"name":"listed","value":"에이다 / Cardano","inline":true}]}],"allowed_mentions":{"parse":[]}}"#
        )
    }
}
