import AggCore
import AggJSON
import AggTestKit
import Coinone
import Foundation
import Testing

private let bed = AdapterTestBed(CoinoneAdapter.self)
private let serverTime = Timestamp(millisecondsSince1970: 1_723_104_735_030)

@Suite("Coinone transfer status")
struct CoinoneTransferTests {
    @Test("one /public/v2/currencies request: one row a coin, the fee and the server time, exact")
    func recordedStatus() async throws {
        let client = try bed.recorded()
        let rows = try await bed.adapter(client).transferStatus(coins: ["BTC", "USDT", "XRP", "NOPE"])
        #expect(client.requests.map(\.url) == [bed.baseURL + "/public/v2/currencies"])
        #expect(
            rows == [
                TransferStatus(
                    exchange: "coinone", coin: "BTC", deposit: .open, withdraw: .open, withdrawFee: decimal("0.0008"),
                    asOf: serverTime),
                TransferStatus(
                    exchange: "coinone", coin: "USDT", deposit: .open, withdraw: .closed, withdrawFee: 7,
                    asOf: serverTime, note: "withdraw: suspended"),
                TransferStatus(
                    exchange: "coinone", coin: "XRP", deposit: .closed, withdraw: .closed, withdrawFee: 1,
                    asOf: serverTime, note: "deposit: suspended; withdraw: suspended"),
            ])
    }

    @Test("no coin named: every coin of the list")
    func everyCoin() async throws {
        let rows = try await bed.adapter(try bed.recorded()).transferStatus(coins: [])
        #expect(rows.map(\.coin) == ["BTC", "ETH", "USDT", "XRP", "MATIC"])
    }

    @Test(
        "only \"normal\" is open; any other word is closed and named in the note; codes upper-cased, bad ones skipped")
    func words() throws {
        let json = try JSONParser.parse(
            #"{"result":"success","currencies":[{"symbol":"btc","deposit_status":"normal","withdraw_status":"#
                + #""paused"},{"symbol":"b-tc","deposit_status":"normal","withdraw_status":"normal"}]}"#)
        let rows = try CoinoneTransferDecoding.statuses(JSONCursor(json))
        #expect(
            rows == [
                TransferStatus(
                    exchange: "coinone", coin: "BTC", deposit: .open, withdraw: .closed, note: "withdraw: paused")
            ])
    }

    @Test("a status that is not a word makes its coin unknown, naming its path; the others answer")
    func badStatus() throws {
        let json = try JSONParser.parse(
            #"{"currencies":[{"symbol":"BTC","deposit_status":1,"withdraw_status":"normal"},"#
                + #"{"symbol":"ETH","deposit_status":"normal","withdraw_status":"normal"}]}"#)
        #expect(
            try CoinoneTransferDecoding.statuses(JSONCursor(json)) == [
                TransferStatus(exchange: "coinone", coin: "ETH", deposit: .open, withdraw: .open),
                TransferStatus(
                    exchange: "coinone", coin: "BTC", deposit: .unknown, withdraw: .unknown,
                    note: "unexpected response at $.currencies[0].deposit_status: expected a string, found a number"),
            ])
    }

    @Test("an error in the envelope (HTTP 200) is Coinone's error")
    func envelopeError() async {
        let client = ScriptedHTTPClient(
            body: #"{"result":"error","error_code":"107","error_msg":"Parameter error"}"#)
        await #expect(throws: AggError.venue(venue: "coinone", code: "107", message: "Parameter error")) {
            _ = try await bed.adapter(client).transferStatus(coins: ["BTC"])
        }
    }
}
