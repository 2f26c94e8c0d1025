import AggCore
import AggJSON
import AggTestKit
import Foundation
import Testing

@testable import Korbit

// What Korbit answers from its recordings (every capability, exact values, requests and errors)
// is data: Fixtures/korbit/expectations.json, run by VenueExpectationTests. These are its quirks.

private let bed = AdapterTestBed(KorbitAdapter.self)

@Suite("Korbit transfer status")
struct KorbitTransferTests {
    @Test("the per-currency copies are read only without networks; an unknown word is unknown and noted")
    func deprecatedFields() throws {
        let json = try JSONParser.parse(
            #"[{"name":"eth","depositStatus":"stopped","withdrawalStatus":"stopped","withdrawalTxFee":"9","#
                + #""networkList":[{"name":"ETH","depositStatus":"launched","withdrawalStatus":"launched","#
                + #""withdrawalTxFee":"0.006"}]},"#
                + #"{"name":"old","depositStatus":"launched","withdrawalStatus":"paused","withdrawalTxFee":"2"},"#
                + #"{"name":"dis","networkList":[{"name":"DIS","depositStatus":"disabled"}]},"#
                + #"{"name":"krw","fullName":"Korean Won"},{"name":"b-tc","depositStatus":"launched"}]"#)
        let rows = try KorbitTransferDecoding.statuses(JSONCursor(json, path: "$.data"))
        #expect(
            rows == [
                TransferStatus(
                    exchange: "korbit", coin: "ETH", network: "ETH", deposit: .open, withdraw: .open,
                    withdrawFee: decimal("0.006")),
                TransferStatus(
                    exchange: "korbit", coin: "OLD", deposit: .open, withdraw: .unknown, withdrawFee: 2,
                    note: "withdrawal: paused"),
                TransferStatus(
                    exchange: "korbit", coin: "DIS", network: "DIS", deposit: .closed, withdraw: .unknown,
                    note: "deposit: disabled"),
            ])
    }

    @Test("a network without a name makes its coin unknown, naming its path")
    func badNetwork() throws {
        let json = try JSONParser.parse(#"[{"name":"btc","networkList":[{"depositStatus":"launched"}]}]"#)
        #expect(
            try KorbitTransferDecoding.statuses(JSONCursor(json, path: "$.data")) == [
                TransferStatus(
                    exchange: "korbit", coin: "BTC", deposit: .unknown, withdraw: .unknown,
                    note: "unexpected response at $.data[0].networkList[0].name: expected a string, found nothing")
            ])
    }
}
