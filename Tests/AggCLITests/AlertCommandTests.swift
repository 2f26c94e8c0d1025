import AggCore
import AggJSON
import AggTestKit
import Foundation
import Testing

@testable import AggCLI
@testable import AggServices

/// 2024-08-08T08:12:15Z.
private let alertNow = Timestamp(millisecondsSince1970: 1_723_104_735_000)

/// A KRW venue (`kra`, with transfer status) whose BTC is 51,000,000 on its first answer and
/// 52,000,000 after, and whose BTC withdrawals close from its second answer; a USDT venue
/// (`gla`) at 50,000; an FX source at 1000 KRW a dollar: a premium of 2%, then 4%. Sample data.
private struct AlertBoard: Sendable {
    let quotes = CallCounter()
    let transfers = CallCounter()

    var registry: AdapterRegistry {
        let quotes = self.quotes
        let transfers = self.transfers
        return AdapterRegistry([
            AdapterRegistration(descriptor: BoardVenue.descriptor("kra", "KRW")) { _ in
                BoardVenue(descriptor: BoardVenue.descriptor("kra", "KRW"), calls: quotes, transferCalls: transfers)
            },
            AdapterRegistration(descriptor: BoardVenue.descriptor("gla", "USDT")) { _ in
                BoardVenue(descriptor: BoardVenue.descriptor("gla", "USDT"), calls: CallCounter(), transferCalls: nil)
            },
            AdapterRegistration(descriptor: BoardFX.descriptor) { _ in BoardFX() },
        ])
    }
}

private struct BoardVenue: VenueAdapter {
    let descriptor: AdapterDescriptor
    let calls: CallCounter
    let transferCalls: CallCounter?

    static func descriptor(_ id: String, _ quote: String) -> AdapterDescriptor {
        AdapterDescriptor(
            id: id, displayName: id, country: quote == "KRW" ? "KR" : "US", homeCurrency: quote,
            quoteCurrencies: [quote],
            capabilities: quote == "KRW" ? [.ticker, .allTickers, .transferStatus] : [.ticker, .allTickers],
            requestsPerSecond: 10, defaultBaseURL: "https://\(id).invalid")
    }

    func quote(for market: Market) async throws(AggError) -> Quote {
        throw .notListed(venue: descriptor.id, market: market, code: "", message: "")
    }

    func fetchAllQuotes(_ request: TickersRequest) async throws(AggError) -> BulkAnswer<Quote> {
        let call = calls.next()
        let last: Decimal = descriptor.id == "gla" ? 50000 : call == 1 ? 51_000_000 : 52_000_000
        return BulkAnswer(values: [
            Quote(
                exchange: descriptor.id, market: Market(base: "BTC", quote: descriptor.homeCurrency), last: last,
                changePercent: Decimal(call))
        ])
    }

    func fetchTransferStatus() async throws(AggError) -> [TransferStatus] {
        let call = transferCalls?.next() ?? 1
        return [
            TransferStatus(
                exchange: descriptor.id, coin: "BTC", network: "BTC", deposit: .open,
                withdraw: call == 1 ? .open : .closed)
        ]
    }
}

private struct BoardFX: VenueAdapter {
    static let descriptor = AdapterDescriptor(
        id: "fxa", displayName: "fxa", country: "ZZ", homeCurrency: "USD", quoteCurrencies: [],
        capabilities: [.fxRates], requestsPerSecond: 1, defaultBaseURL: "https://fxa.invalid")

    var descriptor: AdapterDescriptor { Self.descriptor }

    func quote(for market: Market) async throws(AggError) -> Quote {
        throw .unsupported(venue: "fxa", capability: .ticker)
    }

    func fetchRates(_ request: RateRequest) async throws(AggError) -> RateTable {
        RateTable(
            source: "fxa", base: request.base, rates: ["USD": 1, "KRW": 1000],
            asOf: Timestamp(millisecondsSince1970: alertNow.millisecondsSince1970 - 3_600_000), nextUpdate: nil)
    }
}

/// Bithumb's recorded answers with BTC's last price raised to 80,631,000 from the second request on.
private func risingBithumb() throws -> ScriptedHTTPClient {
    try recordedBithumb { body, call in
        call == 1
            ? body
            : body.replacingOccurrences(of: "\"closing_price\":\"80630000\"", with: "\"closing_price\":\"80631000\"")
    }
}

private func alertLogPath() throws -> String {
    try temporaryDirectory().appendingPathComponent("alerts.jsonl").path
}

@Suite("alerts on agg watch and agg premium --watch")
struct AlertCommandTests {
    @Test("watch: the crossing on the second refresh is one stderr line and one exact --alert-log line")
    func watchAlert() async throws {
        let log = try alertLogPath()
        let run = await runCLI(
            [
                "watch", "BTC", "-e", "bithumb", "-i", "1", "-c", "2", "-f", "json",
                "--alert", "BTC last > 80630500", "--alert", "bithumb:BTC last < 1", "--alert-log", log,
            ], http: try risingBithumb(), now: alertNow)
        #expect(run.status == 0, "\(run.error)")
        #expect(run.error == "agg: alert: bithumb BTC last 80631000 (rule BTC last > 80630500)\n")
        let logged = try String(contentsOfFile: log, encoding: .utf8)
        #expect(
            logged
                == #"{"time":"2024-08-08T08:12:15.000Z","rule":"BTC last > 80630500","exchange":"bithumb","symbol":"BTC","field":"last","value":"80631000","threshold":"80630500"}"#
                + "\n")
        #expect(run.output.split(separator: "\n").count == 2)
    }

    @Test("watch: a crossing inside the cooldown is said on stderr as held back, not dropped in silence")
    func heldBack() async throws {
        // Crosses, re-arms (reset 0%), crosses again at the same instant: inside the 5 min cooldown.
        let client = try recordedBithumb { body, call in
            call == 2
                ? body
                : body.replacingOccurrences(
                    of: "\"closing_price\":\"80630000\"", with: "\"closing_price\":\"80631000\"")
        }
        let run = await runCLI(
            [
                "watch", "BTC", "-e", "bithumb", "-i", "1", "-c", "3", "-f", "json", "--alert", "BTC last > 80630500",
                "--alert-reset", "0%",
            ], http: client, now: alertNow)
        #expect(run.status == 0, "\(run.error)")
        #expect(
            run.errorLines == [
                "agg: alert: bithumb BTC last 80631000 (rule BTC last > 80630500)",
                "agg: alert held back by the cooldown: bithumb BTC last 80631000 (rule BTC last > 80630500)",
            ])
    }

    @Test("premium --watch --notify: each alert reaches the webhook once, in the order delivered")
    func premiumNotify() async throws {
        let hook = ScriptedHTTPClient { request in
            HTTPResponse(status: 200, headers: [], body: Array("{}".utf8), url: request.url)
        }
        let board = AlertBoard()
        let run = await runCLI(
            [
                "premium", "BTC", "--watch", "-c", "2", "-i", "1", "-f", "json", "--alert", "kra:BTC premium > 3%",
                "--alert", "BTC withdraw closed", "--notify", "https://hooks.example.com/agg",
            ], http: hook, registry: board.registry, now: alertNow)
        #expect(run.status == 0, "\(run.error)")
        let posts = hook.requests.filter { $0.method == .post }
        #expect(posts.map(\.url) == ["https://hooks.example.com/agg", "https://hooks.example.com/agg"])
        #expect(
            posts.map { String(decoding: $0.body, as: UTF8.self) } == [
                #"{"time":"2024-08-08T08:12:15.000Z","rule":"kra:BTC premium > 3%","exchange":"kra","symbol":"BTC","field":"premium","value":"4","threshold":"3","text":"agg alert: kra BTC premium 4% (rule kra:BTC premium > 3%)"}"#,
                #"{"time":"2024-08-08T08:12:15.000Z","rule":"BTC withdraw closed","exchange":"kra","symbol":"BTC","field":"withdraw","value":"closed","threshold":null,"text":"agg alert: kra BTC withdraw closed (rule BTC withdraw closed)"}"#,
            ])
    }

    @Test("premium --watch: premium and withdraw rules fire once each, on the refresh that crosses")
    func premiumAlert() async throws {
        let log = try alertLogPath()
        let board = AlertBoard()
        let run = await runCLI(
            [
                "premium", "BTC", "--watch", "-c", "2", "-i", "1", "-f", "json", "--alert", "kra:BTC premium > 3%",
                "--alert", "BTC withdraw closed", "--alert", "BTC change >= 1%", "--alert-log", log,
            ], registry: board.registry, now: alertNow)
        #expect(run.status == 0, "\(run.error)")
        #expect(
            run.errorLines == [
                "agg: alert: gla BTC change 1% (rule BTC change >= 1%)",
                "agg: alert: kra BTC change 1% (rule BTC change >= 1%)",
                "agg: alert: kra BTC premium 4% (rule kra:BTC premium > 3%)",
                "agg: alert: kra BTC withdraw closed (rule BTC withdraw closed)",
            ])
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(
            lines == [
                #"{"time":"2024-08-08T08:12:15.000Z","rule":"BTC change >= 1%","exchange":"gla","symbol":"BTC","field":"change","value":"1","threshold":"1"}"#,
                #"{"time":"2024-08-08T08:12:15.000Z","rule":"BTC change >= 1%","exchange":"kra","symbol":"BTC","field":"change","value":"1","threshold":"1"}"#,
                #"{"time":"2024-08-08T08:12:15.000Z","rule":"kra:BTC premium > 3%","exchange":"kra","symbol":"BTC","field":"premium","value":"4","threshold":"3"}"#,
                #"{"time":"2024-08-08T08:12:15.000Z","rule":"BTC withdraw closed","exchange":"kra","symbol":"BTC","field":"withdraw","value":"closed","threshold":null}"#,
            ])
    }

    @Test(
        "watch with a withdraw rule asks for transfer status: XRP's closed withdrawals fire, BTC's open deposits do not"
    )
    func watchTransfer() async {
        let run = await runCLI(
            [
                "watch", "BTC", "XRP", "-e", "bithumb", "--offline", "-c", "1", "-f", "csv", "--alert",
                "XRP withdraw closed", "--alert", "BTC deposit closed",
            ], now: alertNow)
        #expect(run.status == 0)
        #expect(
            run.errorLines == [
                "agg: offline: bithumb answers from a recorded snapshot from 2024-08-08T08:12:15Z, with some sample data",
                "agg: alert: bithumb XRP withdraw closed (rule XRP withdraw closed)",
            ])
    }

    @Test("a premium rule on a global venue is a usage error")
    func globalPremium() async {
        let run = await runCLI(
            ["premium", "BTC", "--watch", "-c", "1", "--alert", "gla:BTC premium > 3%"],
            registry: AlertBoard().registry,
            now: alertNow)
        #expect(run.status == 64)
        #expect(
            run.errorLines == [
                "agg: --alert 'gla:BTC premium > 3%': gla is a global venue: premiums are measured on kra"
            ])
    }

    @Test("an --alert-log that cannot be written stops the loop after that refresh: exit 74")
    func logFailure() async throws {
        let run = await runCLI(
            [
                "watch", "BTC", "-e", "bithumb", "-i", "1", "-c", "3", "-f", "json", "--alert", "BTC last > 1",
                "--alert-log", "/dev/full",
            ], http: try risingBithumb(), now: alertNow)
        #expect(run.status == 74)
        #expect(
            run.errorLines == [
                "agg: alert: bithumb BTC last 80630000 (rule BTC last > 1)",
                "agg: cannot write to --alert-log /dev/full: No space left on device",
            ])
        #expect(run.output.split(separator: "\n").count == 1)
    }

    @Test(
        "alert options the command cannot honour are usage errors naming the part",
        arguments: [
            (
                ["watch", "BTC", "-e", "bithumb", "--alert", "upbit:BTC premim > 3%"],
                "agg: --alert 'upbit:BTC premim > 3%': unknown field 'premim' (last, premium, usdtPremium, change)"
            ),
            (
                ["watch", "BTC", "-e", "bithumb", "--alert", "BTC premium > 3%"],
                "agg: --alert 'BTC premium > 3%': agg watch has no premium (premiums are on agg premium --watch)"
            ),
            (
                ["watch", "BTC", "-e", "bithumb", "--alert", "upbit:BTC last > 1"],
                "agg: --alert 'upbit:BTC last > 1': upbit is not among the venues asked (bithumb)"
            ),
            (
                ["watch", "BTC", "-e", "bithumb", "--alert", "ETH last > 1"],
                "agg: --alert 'ETH last > 1': ETH is not among the symbols asked (BTC)"
            ),
            (
                ["watch", "BTC", "-e", "binance", "--alert", "BTC withdraw closed"],
                "agg: --alert 'BTC withdraw closed': none of the venues asked publishes transfer status"
            ),
            (["watch", "BTC", "-e", "bithumb", "--alert-log", "x.jsonl"], "agg: --alert-log needs --alert"),
            (
                ["watch", "BTC", "-e", "bithumb", "--alert", "BTC last > 1", "--on-alert-arg", "x"],
                "agg: --on-alert-arg needs --on-alert"
            ),
            (
                ["watch", "BTC", "-e", "bithumb", "--alert", "BTC last > 1", "--on-alert", "/nonexistent/notify"],
                "agg: --on-alert '/nonexistent/notify': not an executable file (a path; no shell, no PATH lookup)"
            ),
            (
                ["watch", "BTC", "-e", "bithumb", "--alert", "BTC last > 1", "--alert-log", "/nonexistent/a.jsonl"],
                "agg: --alert-log '/nonexistent/a.jsonl': cannot open it: No such file or directory"
            ),
            (
                ["watch", "BTC", "-e", "bithumb", "--alert", "BTC last > 1", "--alert-reset", "10"],
                "agg: invalid --alert-reset '10': expected a percent such as 10% or 0%"
            ),
            (
                ["watch", "BTC", "-e", "bithumb", "--alert", "BTC last > 1", "--alert-cooldown", "5x"],
                "agg: invalid --alert-cooldown '5x': expected a duration such as 5m, 30s or 0"
            ),
            (["premium", "--alert", "BTC premium > 3%"], "agg: --alert needs --watch"),
        ])
    func usage(arguments: [String], message: String) async {
        let run = await runCLI(arguments + ["--offline"])
        #expect(run.status == 64)
        #expect(run.errorLines == [message])
        #expect(run.output.isEmpty)
    }
}

@Suite("alert delivery: stderr and --alert-log")
struct AlertDeliveryTests {
    /// An alert whose venue text tries to drive the terminal (retitle the window, ring the bell).
    let hostile = Alert(
        time: alertNow, rule: AlertRule(venue: nil, symbol: "BTC", condition: .threshold(.last, .above, 1)),
        exchange: "evil\u{1B}]0;pwned\u{07}", reading: .number(2))
    let plain = Alert(
        time: alertNow, rule: AlertRule(venue: "upbit", symbol: "BTC", condition: .threshold(.premium, .above, 3)),
        exchange: "upbit", reading: .number(Decimal(string: "3.12") ?? 0))

    @Test("one escaped line per alert, then one bell when stderr is a terminal; none elsewhere")
    func standardError() async {
        let terminal = BufferSink()
        let delivery = AlertDelivery(
            console: Console(standardOutput: BufferSink(), standardError: terminal, errorIsTerminal: true))
        #expect(await delivery.deliver([plain, hostile]) == nil)
        #expect(
            terminal.text == "agg: alert: upbit BTC premium 3.12% (rule upbit:BTC premium > 3%)\n"
                + "agg: alert: evil\\x1B]0;pwned\\x07 BTC last 2 (rule BTC last > 1)\n\u{07}")
        let pipe = BufferSink()
        let quiet = AlertDelivery(console: Console(standardOutput: BufferSink(), standardError: pipe))
        #expect(await quiet.deliver([plain]) == nil)
        #expect(pipe.text == "agg: alert: upbit BTC premium 3.12% (rule upbit:BTC premium > 3%)\n")
        #expect(await quiet.deliver([]) == nil)
        #expect(pipe.text.filter { $0 == "\n" }.count == 1)
    }

    @Test("--alert-log appends exact JSON lines to what the file held; control characters escaped")
    func log() async throws {
        let path = try alertLogPath()
        try "earlier line\n".write(toFile: path, atomically: true, encoding: .utf8)
        let delivery = AlertDelivery(
            console: Console(standardOutput: BufferSink(), standardError: BufferSink()),
            log: try AlertLogFile(path: path))
        #expect(await delivery.deliver([plain]) == nil)
        #expect(await delivery.deliver([hostile]) == nil)
        #expect(
            try String(contentsOfFile: path, encoding: .utf8) == "earlier line\n"
                + #"{"time":"2024-08-08T08:12:15.000Z","rule":"upbit:BTC premium > 3%","exchange":"upbit","symbol":"BTC","field":"premium","value":"3.12","threshold":"3"}"#
                + "\n"
                + #"{"time":"2024-08-08T08:12:15.000Z","rule":"BTC last > 1","exchange":"evil\u001b]0;pwned\u0007","symbol":"BTC","field":"last","value":"2","threshold":"1"}"#
                + "\n")
    }
}

@Suite("alerts on a redrawn board")
struct AlertRedrawTests {
    @Test("an alert line on the terminal's stderr is moved back over by the next redraw")
    func redraw() async {
        let output = BufferSink()
        let errors = BufferSink()
        var context = CLIContext(
            registry: AlertBoard().registry, environment: ["TERM": "xterm", "AGG_HOME": NSTemporaryDirectory()],
            console: Console(
                standardOutput: output, standardError: errors, outputIsTerminal: true, errorIsTerminal: true,
                width: 200),
            makeHTTPClient: { _ in ScriptedHTTPClient { _ in throw TransportError.connection(url: "", detail: "") } },
            interrupts: { AsyncStream { _ in } })
        context.now = { alertNow }
        let status = await CLI.run(
            ["premium", "BTC", "--watch", "-c", "2", "-i", "1", "--basis", "fx", "--alert", "kra:BTC premium > 1%"],
            context: context)
        #expect(status == 0)
        #expect(errors.text == "agg: alert: kra BTC premium 2% (rule kra:BTC premium > 1%)\n\u{07}")
        // The first frame, after the hidden cursor, up to the second's move back.
        let frames = output.text.components(separatedBy: "\r\u{1B}[J")
        #expect(frames.count == 2)
        let first = frames[0]
        let lines = first.filter { $0 == "\n" }.count
        #expect(first.hasSuffix("\u{1B}[\(lines + 1)A"))
    }
}
