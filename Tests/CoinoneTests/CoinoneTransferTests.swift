import AggCore
import AggJSON
import AggTestKit
import Foundation
import Testing

@testable import Coinone

// What Coinone answers from its recordings (every capability, exact values, requests and errors)
// is data: Fixtures/coinone/expectations.json, run by VenueExpectationTests. These are its quirks.

private let bed = AdapterTestBed(CoinoneAdapter.self)

@Suite("Coinone transfer status")
struct CoinoneTransferTests {
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
