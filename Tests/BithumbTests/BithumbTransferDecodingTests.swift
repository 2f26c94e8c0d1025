import AggCore
import AggJSON
import Testing

@testable import Bithumb

@Suite("Bithumb transfer status decoding")
struct BithumbTransferDecodingTests {
    @Test("1 and 0 as numbers, strings or booleans; anything else names its path")
    func states() throws {
        let data = try JSONParser.parse(
            #"[{"currency":"btc","net_type":"BTC","deposit_status":"1","withdrawal_status":false},"#
                + #"{"currency":"ETH","net_type":"ETH","deposit_status":true,"withdrawal_status":0}]"#)
        let rows = try BithumbTransferDecoding.statuses(data: JSONCursor(data, path: "$.data"))
        #expect(
            rows.map { "\($0.coin) \($0.network ?? "-") \($0.deposit) \($0.withdraw)" } == [
                "BTC BTC open closed", "ETH ETH open closed",
            ])
        // A damaged entry makes its coin unknown, with the reason, and costs no other coin.
        let bad = try JSONParser.parse(
            #"[{"currency":"BTC","deposit_status":2,"withdrawal_status":1},"#
                + #"{"currency":"ETH","net_type":"ETH","deposit_status":1,"withdrawal_status":1}]"#)
        let partly = try BithumbTransferDecoding.statuses(data: JSONCursor(bad, path: "$.data"))
        #expect(
            partly == [
                TransferStatus(exchange: "bithumb", coin: "ETH", network: "ETH", deposit: .open, withdraw: .open),
                TransferStatus(
                    exchange: "bithumb", coin: "BTC", deposit: .unknown, withdraw: .unknown,
                    note: "unexpected response at $.data[0].deposit_status: expected 1 or 0, found a number"),
            ])
    }
}
