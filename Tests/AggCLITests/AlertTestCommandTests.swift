import AggCore
import AggJSON
import AggTestKit
import AggTransport
import Foundation
import Testing

@testable import AggCLI
@testable import AggServices

/// Runs the CLI in this process with the real libcurl transport (to loopback receivers) and the
/// `--notify` waits on `clock`.
private func runNotifyCLI(
    _ arguments: [String], environment: [String: String] = [:], clock: RetryClock = VirtualClock().clock
) async -> CLIRun {
    let output = BufferSink()
    let error = BufferSink()
    var environment = environment
    // No config file unless the test names one.
    if environment["AGG_CONFIG"] == nil, let directory = try? temporaryDirectory() {
        environment["XDG_CONFIG_HOME"] = directory.path
    }
    var context = CLIContext(
        registry: testRegistry(), environment: environment,
        console: Console(
            standardOutput: output, standardError: error, outputIsTerminal: false, errorIsTerminal: false, width: 200),
        makeHTTPClient: { timeouts in CurlHTTPClient(timeouts: timeouts) })
    context.now = { Timestamp(millisecondsSince1970: 1_723_104_735_000) }
    context.notifyClock = clock
    let status = await CLI.run(arguments, context: context)
    return CLIRun(status: status, output: output.text, error: error.text)
}

private let sampleText = "agg alert test: upbit BTC last 1 (rule upbit:BTC last > 0)"
private let sampleJSON =
    #"{"time":"2024-08-08T08:12:15.000Z","rule":"upbit:BTC last > 0","exchange":"upbit","symbol":"BTC","field":"last","value":"1","threshold":"0","text":"agg alert test: upbit BTC last 1 (rule upbit:BTC last > 0)"}"#

@Suite("agg alert test: one sample alert, the destination's answer, and the exit code")
struct AlertTestCommandTests {
    @Test("a webhook answering 200: delivered, exit 0, the documented body signed with the file's secret")
    func webhookDelivered() async throws {
        let server = try LoopbackServer { _ in .json(#"{"ok":true}"#) }
        let directory = try temporaryDirectory()
        let secretFile = directory.appendingPathComponent("hook.secret").path
        try "Jefe\n".write(toFile: secretFile, atomically: true, encoding: .utf8)
        let run = await runNotifyCLI(
            ["alert", "test", "--notify", server.baseURL + "/hook/s3cret", "--notify-secret-file", secretFile])
        #expect(run.status == 0, "\(run.error)")
        #expect(run.output == "http://127.0.0.1:\(server.port)/***: delivered: HTTP 200: {\"ok\":true}\n")
        #expect(run.error == "")
        let request = try #require(server.requests.first)
        #expect(server.requests.count == 1)
        #expect(request.method == "POST" && request.path == "/hook/s3cret")
        #expect(String(decoding: request.body, as: UTF8.self) == sampleJSON)
        #expect(request.header("Content-Type") == "application/json")
        // The receiver's check, done here with the secret (the file's line break is not part of it).
        let mac = NotifySignature.hmacSHA256(key: Array("Jefe".utf8), message: request.body)
        #expect(request.header("X-Agg-Signature") == "sha256=" + NotifySignature.hex(mac))
    }

    @Test("Telegram refusing (400, chat not found): refused, exit 65; the token never printed")
    func telegramRefused() async throws {
        let token = "987654:TOKEN-from-file"
        let server = try LoopbackServer { request in
            request.path == "/bot\(token)/sendMessage"
                ? .json(#"{"ok":false,"error_code":400,"description":"Bad Request: chat not found"}"#, status: 400)
                : .status(404)
        }
        let directory = try temporaryDirectory()
        let tokenFile = directory.appendingPathComponent("bot.token").path
        try (token + "\n").write(toFile: tokenFile, atomically: true, encoding: .utf8)
        let run = await runNotifyCLI(
            ["alert", "test", "--notify", "telegram://-100123"],
            environment: ["AGG_TELEGRAM_TOKEN_FILE": tokenFile, "AGG_TELEGRAM_URL": server.baseURL])
        #expect(run.status == 65)
        #expect(
            run.output
                == "telegram://-100123: refused: HTTP 400: {\"ok\":false,\"error_code\":400,\"description\":\"Bad Request: chat not found\"}\n"
        )
        #expect(!(run.output + run.error).contains(token))
        let body = JSONCursor(try JSONParser.parse(try #require(server.requests.first).body))
        #expect(try body["chat_id"].string() == "-100123")
        #expect(try body["text"].string() == sampleText)
    }

    @Test("Discord answering 503 every time: failed after 4 retries, exit 69; 204 is delivered, exit 0")
    func discord() async throws {
        let down = try LoopbackServer { _ in .json(#"{"message":"unavailable"}"#, status: 503) }
        let clock = VirtualClock()
        let failed = await runNotifyCLI(
            ["alert", "test", "--notify", "discord://42"],
            environment: ["AGG_DISCORD_TOKEN": "tok_en", "AGG_DISCORD_URL": down.baseURL], clock: clock.clock)
        #expect(failed.status == 69)
        #expect(failed.output == "discord://42: failed: HTTP 503: {\"message\":\"unavailable\"}\n")
        #expect(down.requests.count == 5)
        #expect(down.requests.allSatisfy { $0.path == "/api/webhooks/42/tok_en" })
        #expect(clock.sleeps == [0.75, 1.5, 3, 6])

        let up = try LoopbackServer { _ in .status(204) }
        let delivered = await runNotifyCLI(
            ["alert", "test", "--notify", "discord://42"],
            environment: ["AGG_DISCORD_TOKEN": "tok_en", "AGG_DISCORD_URL": up.baseURL])
        #expect(delivered.status == 0)
        #expect(delivered.output == "discord://42: delivered: HTTP 204\n")
        let body = JSONCursor(try JSONParser.parse(try #require(up.requests.first).body))
        #expect(try body["content"].string() == #"agg alert test: upbit BTC last 1 (rule upbit:BTC last \> 0)"#)
    }

    @Test("a destination that cannot be reached is exit 69, said without its URL")
    func unreachable() async throws {
        // Port 1 on loopback: nothing listens there, so the connection is refused at once. (A
        // stopped loopback server's port was taken by another test's server during the retries.)
        let base = "http://127.0.0.1:1"
        let run = await runNotifyCLI(
            ["alert", "test", "--notify", "telegram://7"],
            environment: ["AGG_TELEGRAM_TOKEN": "11:secret", "AGG_TELEGRAM_URL": base])
        #expect(run.status == 69)
        #expect(run.output.hasPrefix("telegram://7: unreachable: connection failed: "))
        #expect(!run.output.contains("11:secret") && !run.output.contains("/bot"))
    }

    @Test(
        "usage errors: no destination, a missing token, a token on the command line; none shows a secret",
        arguments: [
            (
                ["alert", "test"], [String: String](),
                "agg: agg alert test needs a destination: --notify URL (or the config file's notify)"
            ),
            (
                ["alert", "test", "--notify", "telegram://1"], [:],
                "agg: --notify telegram://1 needs the bot token in AGG_TELEGRAM_TOKEN or in the file AGG_TELEGRAM_TOKEN_FILE names"
            ),
            (
                ["alert", "test", "--notify", "telegram://1"], ["AGG_TELEGRAM_TOKEN_FILE": "/nonexistent/t"],
                "agg: --notify telegram://1: cannot read the file AGG_TELEGRAM_TOKEN_FILE names (/nonexistent/t): No such file or directory"
            ),
            (
                ["alert", "test", "--notify", "telegram://1"], ["AGG_TELEGRAM_TOKEN": "a/b"],
                "agg: --notify telegram://1: the bot token in AGG_TELEGRAM_TOKEN is not a token (letters, digits, : _ - .)"
            ),
            (
                ["alert", "test", "--notify", "discord://9/SECRETTOKEN"], [:],
                "agg: --notify 'discord://9/***': a Discord webhook's token is a secret: give discord://WEBHOOK_ID, and the token in AGG_DISCORD_TOKEN or the file AGG_DISCORD_TOKEN_FILE names"
            ),
            (["alert", "check"], [:], "agg: unknown alert action 'check'; expected test"),
            (
                ["watch", "BTC", "-e", "bithumb", "--notify", "https://example.com/h"], [:],
                "agg: --notify needs --alert"
            ),
            (
                ["watch", "BTC", "-e", "bithumb", "--alert", "BTC last > 1", "--notify-secret-file", "/x"], [:],
                "agg: --notify-secret-file needs --notify"
            ),
            (
                ["serve", "--exchange", "bithumb", "--alert", "upbit:BTC last > 1", "--notify", "telegram://1"], [:],
                "agg: --alert 'upbit:BTC last > 1': upbit is not among the venues asked (bithumb)"
            ),
            (
                ["serve", "--exchange", "bithumb", "--alert", "BTC last > 1", "--notify", "telegram://1"], [:],
                "agg: --notify telegram://1 needs the bot token in AGG_TELEGRAM_TOKEN or in the file AGG_TELEGRAM_TOKEN_FILE names"
            ),
        ])
    func usage(arguments: [String], environment: [String: String], message: String) async {
        let run = await runNotifyCLI(arguments, environment: environment)
        #expect(run.status == 64)
        #expect(run.errorLines.last == message)
        #expect(!run.error.contains("SECRETTOKEN"))
    }

    @Test("the config file's notify list is used, and config show prints it without secrets")
    func configFile() async throws {
        let server = try LoopbackServer { _ in .status(200) }
        let directory = try temporaryDirectory()
        let config = directory.appendingPathComponent("config.json").path
        try
            #"{"notify":["\#(server.baseURL)/hook/path-secret","telegram://-100"],"notifySecretFile":"/etc/agg/hook.secret"}"#
            .write(toFile: config, atomically: true, encoding: .utf8)
        let show = await runNotifyCLI(["config", "show"], environment: ["AGG_CONFIG": config])
        #expect(show.status == 0, "\(show.error)")
        #expect(show.output.contains("notify"), "\(show.output)")
        let json = JSONCursor(try JSONParser.parse(show.output))
        #expect(
            try json["notify"].elements().map { try $0.string() }
                == ["http://127.0.0.1:\(server.port)/***", "telegram://-100"])
        #expect(!show.output.contains("path-secret"))

        try #"{"notify":["\#(server.baseURL)/hook/path-secret"]}"#.write(
            toFile: config, atomically: true, encoding: .utf8)
        let run = await runNotifyCLI(["alert", "test"], environment: ["AGG_CONFIG": config])
        #expect(run.status == 0, "\(run.error)")
        #expect(server.requests.map(\.path) == ["/hook/path-secret"])
    }
}
