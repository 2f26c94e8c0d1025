import AggCore
import AggJSON
import Foundation
import Testing

@testable import AggOptions
@testable import AggServices

/// `QuoteAging`: every quote's age, its stale mark and how each output writes them.
@Suite("quote aging")
struct QuoteAgingTests {
    /// Bithumb's recorded BTC ticker time, 2024-08-08T08:12:15.027Z.
    static let venueTime = Timestamp(millisecondsSince1970: 1_723_104_735_027)

    static func quote(timestamp: Timestamp? = venueTime, receivedAt: Timestamp? = nil) -> Quote {
        Quote(
            exchange: "bithumb", market: Market(base: "BTC", quote: "KRW"), last: 80_630_000, timestamp: timestamp,
            receivedAt: receivedAt)
    }

    static func aging(after milliseconds: Int64, staleAfter: Duration = .seconds(30)) -> QuoteAging {
        QuoteAging(
            now: Timestamp(millisecondsSince1970: venueTime.millisecondsSince1970 + milliseconds),
            staleAfter: staleAfter)
    }

    @Test(
        "ageSeconds has exactly three decimals",
        arguments: [(0, "0.000"), (5, "0.005"), (1005, "1.005"), (12_345, "12.345"), (86_400_000, "86400.000")])
    func secondsText(milliseconds: Int64, text: String) {
        #expect(QuoteAging.secondsText(QuoteAge(milliseconds: milliseconds, basis: .venueTime)) == text)
    }

    @Test(
        "the AGE cell's text: tenths under 10 s, then whole seconds, minutes, hours, days, rounded down",
        arguments: [
            (0, "0.0s"), (1_299, "1.2s"), (9_999, "9.9s"), (10_000, "10s"), (59_999, "59s"), (60_000, "1m"),
            (3_599_999, "59m"), (3_600_000, "1h"), (86_399_999, "23h"), (86_400_000, "1d"), (259_200_000, "3d"),
        ])
    func cellText(milliseconds: Int64, text: String) {
        #expect(QuoteAging.text(QuoteAge(milliseconds: milliseconds, basis: .venueTime)) == text)
    }

    @Test("a quote exactly at --stale-after is fresh; one millisecond older is stale")
    func limit() {
        #expect(!Self.aging(after: 30_000).isStale(Self.quote()))
        #expect(Self.aging(after: 30_001).isStale(Self.quote()))
        #expect(!Self.aging(after: 10_000, staleAfter: .seconds(10)).isStale(Self.quote()))
        #expect(Self.aging(after: 10_001, staleAfter: .seconds(10)).isStale(Self.quote()))
        // --stale-after 0: anything older than now is stale, a quote of this very millisecond is not.
        #expect(!Self.aging(after: 0, staleAfter: .zero).isStale(Self.quote()))
        #expect(Self.aging(after: 1, staleAfter: .zero).isStale(Self.quote()))
    }

    @Test("a quote whose source is down is stale whatever its age")
    func sourceDown() {
        let aging = Self.aging(after: 0)
        #expect(!aging.isStale(Self.quote()))
        #expect(aging.isStale(Self.quote(), sourceDown: true))
        var json = JSONWriter()
        json.beginObject()
        aging.write(Self.quote(receivedAt: Self.venueTime), sourceDown: true, to: &json)
        json.endObject()
        #expect(
            String(decoding: json.bytes, as: UTF8.self)
                == #"{"receivedAt":"2024-08-08T08:12:15.027Z","ageSeconds":"0.000","stale":true}"#)
    }

    @Test("the age is measured from the venue's time, else from receivedAt; without either it is null")
    func basis() {
        let received = Timestamp(millisecondsSince1970: Self.venueTime.millisecondsSince1970 + 2_000)
        let aging = Self.aging(after: 2_500)
        #expect(aging.csvFields(Self.quote(receivedAt: received)) == ["2024-08-08T08:12:17.027Z", "2.500", "false"])
        #expect(
            aging.csvFields(Self.quote(timestamp: nil, receivedAt: received))
                == ["2024-08-08T08:12:17.027Z", "0.500", "false"])
        #expect(aging.csvFields(Self.quote(timestamp: nil)) == ["", "", "false"])
        #expect(
            JSONValue.object(JSONObject(aging.members(Self.quote(timestamp: nil)))).serialized()
                == #"{"receivedAt":null,"ageSeconds":null,"stale":false}"#)
    }

    @Test("on a terminal AGE is yellow from 10 s and the stale mark red; no colour without a terminal")
    func colours() {
        let colour = TextStyle(enabled: true)
        func painted(_ aging: QuoteAging, _ style: TextStyle, sourceDown: Bool = false) -> String {
            let cell = aging.cell(Self.quote(), sourceDown: sourceDown, style: style)
            return cell.paint.map { $0(cell.text) } ?? cell.text
        }
        #expect(painted(Self.aging(after: 9_999), colour) == "9.9s")
        #expect(painted(Self.aging(after: 10_000), colour) == "\u{1B}[33m10s\u{1B}[0m")
        #expect(painted(Self.aging(after: 30_001), colour) == "\u{1B}[33m30s\u{1B}[0m \u{1B}[31mstale\u{1B}[0m")
        #expect(painted(Self.aging(after: 1_000), colour, sourceDown: true) == "1.0s \u{1B}[31mstale\u{1B}[0m")
        // The stale mark stays red with the Korean palette, whose red means up.
        #expect(
            painted(Self.aging(after: 30_001), TextStyle(enabled: true, palette: .kr))
                == "\u{1B}[33m30s\u{1B}[0m \u{1B}[31mstale\u{1B}[0m")
        #expect(painted(Self.aging(after: 30_001), .plain) == "30s stale")
        #expect(painted(Self.aging(after: 10_000), .plain) == "10s")
    }

    @Test("the rendering's sourceDown hook (a dropped stream) marks a young quote stale in JSON, CSV and the table")
    func sourceDownHook() {
        let quote = Self.quote(receivedAt: Self.venueTime)
        let aging = Self.aging(after: 1_000)
        func rendering(sourceDown: Bool) -> QuoteRendering {
            QuoteRendering(
                outcomes: [
                    QuoteService.Outcome(
                        exchange: "bithumb", market: quote.market, result: .success(quote), sourceDown: sourceDown)
                ], aging: aging)
        }
        #expect(
            rendering(sourceDown: false).jsonLine().hasSuffix(
                #""ageSeconds":"1.000","stale":false}],"errors":[]}"# + "\n"))
        #expect(
            rendering(sourceDown: true).jsonLine().hasSuffix(
                #""ageSeconds":"1.000","stale":true}],"errors":[]}"# + "\n"))
        #expect(rendering(sourceDown: true).csv().hasSuffix(",true,2024-08-08T08:12:15.027Z,1.000"))
        #expect(rendering(sourceDown: true).table(width: 200, style: .plain).hasSuffix("  1.0s stale"))
        #expect(rendering(sourceDown: false).table(width: 200, style: .plain).hasSuffix("  1.0s"))
    }
}
