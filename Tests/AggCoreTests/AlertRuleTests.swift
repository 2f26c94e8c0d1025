import AggCore
import FoundationEssentials
import Testing

/// Venues for the parser: two that publish transfer status, one that does not.
let alertVenues = [
    AdapterDescriptor(
        id: "bithumb", displayName: "Bithumb", country: "KR", homeCurrency: "KRW", quoteCurrencies: ["KRW"],
        capabilities: [.ticker, .transferStatus], requestsPerSecond: 10, defaultBaseURL: "https://bithumb.invalid"),
    AdapterDescriptor(
        id: "upbit", displayName: "Upbit", country: "KR", homeCurrency: "KRW", quoteCurrencies: ["KRW"],
        capabilities: [.ticker, .transferStatus], requestsPerSecond: 10, defaultBaseURL: "https://upbit.invalid"),
    AdapterDescriptor(
        id: "binance", displayName: "Binance", country: "MT", homeCurrency: "USDT", quoteCurrencies: ["USDT"],
        capabilities: [.ticker], requestsPerSecond: 10, defaultBaseURL: "https://binance.invalid"),
]

@Suite("alert rules: the --alert grammar")
struct AlertRuleTests {
    @Test(
        "valid expressions and their normal text",
        arguments: [
            ("upbit:BTC premium > 3%", "upbit:BTC premium > 3%"),
            ("  UPBIT:btc  PREMIUM>=3.50% ", "upbit:BTC premium >= 3.5%"),
            ("ETH last < 3000000", "ETH last < 3000000"),
            ("BTC usdtPremium <= -0.5%", "BTC usdtPremium <= -0.5%"),
            ("btc change>5%", "BTC change > 5%"),
            ("bithumb:BTC withdraw closed", "bithumb:BTC withdraw closed"),
            ("XRP deposit CLOSED", "XRP deposit closed"),
            ("1INCH last >= 0.25", "1INCH last >= 0.25"),
        ])
    func valid(text: String, normal: String) throws {
        #expect(try AlertRule.parse(text, venues: alertVenues).text == normal)
    }

    @Test("the parts of a rule")
    func parts() throws {
        let rule = try AlertRule.parse("upbit:btc premium > 3.10%", venues: alertVenues)
        #expect(rule.venue == "upbit")
        #expect(rule.symbol == "BTC")
        #expect(rule.condition == .threshold(.premium, .above, Decimal(string: "3.1")!))
        #expect(rule.fieldName == "premium")
        #expect(rule.thresholdText == "3.1%")
        #expect(rule.key(venue: "upbit") == "upbit:BTC premium > 3.1%")
        let transfer = try AlertRule.parse("BTC deposit closed", venues: alertVenues)
        #expect(transfer.venue == nil)
        #expect(transfer.condition == .closed(.deposit))
        #expect(transfer.key(venue: "bithumb") == "bithumb:BTC deposit closed")
        #expect(transfer.thresholdText == nil)
    }

    @Test(
        "every malformed expression, event rules included, is a usage error naming the wrong part; * stays refused outside event rules",
        arguments: [
            (
                "",
                "expected [VENUE:]SYMBOL FIELD OP VALUE (such as 'upbit:BTC premium > 3%') or SYMBOL withdraw|deposit closed"
            ),
            ("> 3", "expected [VENUE:]SYMBOL before '>'"),
            ("upbti:BTC last > 1", "unknown exchange 'upbti' (known: binance, bithumb, upbit)"),
            (":BTC last > 1", "missing VENUE before ':'"),
            ("a:b:c last > 1", "expected [VENUE:]SYMBOL, found 'a:b:c'"),
            ("upbit:B-TC last > 1", "invalid symbol 'B-TC': codes hold only letters A-Z and digits 0-9"),
            ("BTC", "missing FIELD after 'BTC' (last, premium, usdtPremium, change)"),
            ("BTC > 3", "missing FIELD before '>' (last, premium, usdtPremium, change)"),
            ("upbit:BTC premim > 3%", "unknown field 'premim' (last, premium, usdtPremium, change)"),
            ("BTC last", "missing OP after 'last' (>, <, >=, <=)"),
            ("BTC last = 3", "unknown operator '=' (>, <, >=, <=)"),
            ("BTC last => 3", "unknown operator '=>' (>, <, >=, <=)"),
            ("BTC last above 3", "unknown operator 'above' (>, <, >=, <=)"),
            ("BTC last >", "missing VALUE after '>'"),
            ("BTC last > 3,000", "invalid VALUE '3,000': expected a price such as 80000000 or 0.25"),
            ("BTC last > 1e6", "invalid VALUE '1e6': expected a price such as 80000000 or 0.25"),
            ("BTC last > 00123", "invalid VALUE '00123': expected a price such as 80000000 or 0.25"),
            ("BTC premium > 03%", "invalid VALUE '03%': expected a percent such as 3% or -0.5%"),
            ("BTC last > -5", "invalid VALUE '-5': expected a price such as 80000000 or 0.25"),
            ("BTC last > 5%", "last is a price in the market's currency: write the VALUE without '%'"),
            ("BTC premium > 3", "premium is a percent: write the VALUE with '%', such as 3%"),
            ("BTC premium > .5%", "invalid VALUE '.5%': expected a percent such as 3% or -0.5%"),
            ("BTC change > 5%%", "invalid VALUE '5%%': expected a percent such as 3% or -0.5%"),
            ("BTC premium > 3% now", "unexpected 'now' after '3%'"),
            ("BTC withdraw", "expected 'closed' after 'withdraw'"),
            ("BTC withdraw open", "unknown transfer state 'open': an alert waits for 'closed'"),
            ("BTC deposit closed now", "unexpected 'now' after 'closed'"),
            ("binance:BTC withdraw closed", "binance publishes no transfer status (bithumb, upbit do)"),
            // Event rules (AlertEventRuleTests): one usage line naming the wrong part; * stays refused elsewhere.
            ("XRP caution", "expected 'on' or 'off' after 'caution'"),
            ("XRP warning maybe", "unknown warning state 'maybe': expected 'on' or 'off'"),
            ("XRP caution on now", "unexpected 'now' after 'on'"),
            ("upbit:* listed twice", "unexpected 'twice' after 'listed'"),
            ("upbti:* listed", "unknown exchange 'upbti' (known: binance, bithumb, upbit)"),
            ("upbit:X-RP notice", "invalid symbol 'X-RP': codes hold only letters A-Z and digits 0-9"),
            ("* last > 3", "invalid symbol '*': codes hold only letters A-Z and digits 0-9"),
            ("* withdraw closed", "invalid symbol '*': codes hold only letters A-Z and digits 0-9"),
            ("XRP withdraw_closed", "unknown field 'withdraw_closed' (last, premium, usdtPremium, change)"),
        ])
    func invalid(text: String, message: String) {
        #expect(throws: AggError.usage("--alert '\(text)': \(message)")) {
            try AlertRule.parse(text, venues: alertVenues)
        }
    }
}
