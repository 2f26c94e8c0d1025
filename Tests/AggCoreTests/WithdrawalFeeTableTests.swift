import AggCore
import AggJSON
import Foundation
import Testing

/// The one loader of shipped withdrawal-fee tables: strict JSON, the house decimal grammar, a
/// real day and an https page, and the table's age in whole days.
@Suite("withdrawal-fee tables")
struct WithdrawalFeeTableTests {
    static func parse(_ text: String) throws(JSONDecodingError) -> WithdrawalFeeTable {
        try WithdrawalFeeTable.parse(Array(text.utf8))
    }

    @Test("a table reads exactly; COIN/NETWORK wins over COIN, a coin without an entry has none")
    func reads() throws {
        let table = try Self.parse(
            #"{"source":"https://venue.example/fees","asOf":"2026-11-20","fees":{"BTC":"0.0005","USDT/TRC20":"1","USDT":"4.50"}}"#
        )
        #expect(table.source == "https://venue.example/fees")
        #expect(table.asOf == "2026-11-20")
        #expect(table.fee(coin: "BTC", network: nil) == Decimal(string: "0.0005"))
        #expect(table.fee(coin: "BTC", network: "BTC") == Decimal(string: "0.0005"))
        #expect(table.fee(coin: "USDT", network: "TRC20") == 1)
        #expect(table.fee(coin: "USDT", network: "ERC20") == Decimal(string: "4.5"))
        #expect(table.fee(coin: "XRP", network: nil) == nil)
    }

    @Test(
        "a bad table is an error naming the path and the problem",
        arguments: [
            (
                #"{"source":"https://v.example/f","asOf":"2026-11-20","fees":{"BTC":"5e-4"}}"#,
                "$.fees.BTC: '5e-4' has an exponent: a decimal written as text must be written out in full"
            ),
            (
                #"{"source":"https://v.example/f","asOf":"2026-11-20","fees":{"BTC":"0,0005"}}"#,
                "$.fees.BTC: '0,0005' is not a decimal number"
            ),
            (
                #"{"source":"https://v.example/f","asOf":"2026-11-20","fees":{"BTC":"00.1"}}"#,
                "$.fees.BTC: '00.1' has leading zeros"
            ),
            (
                #"{"source":"https://v.example/f","asOf":"2026-11-20","fees":{"BTC":0.0005}}"#,
                "$.fees.BTC: expected a string, found a number"
            ),
            (
                #"{"source":"https://v.example/f","asOf":"2026-11-20","fees":{"BTC":"-1"}}"#,
                "$.fees.BTC: '-1' is negative"
            ),
            (
                #"{"source":"https://v.example/f","asOf":"2026-11-20","fees":{"btc":"1"}}"#,
                "$.fees.btc: 'btc' is not COIN or COIN/NETWORK (\"USDT/TRC20\")"
            ),
            (
                #"{"source":"https://v.example/f","asOf":"2026-11-20","fees":{"USDT/":"1"}}"#,
                "$.fees.USDT/: 'USDT/' is not COIN or COIN/NETWORK (\"USDT/TRC20\")"
            ),
            (
                #"{"source":"https://v.example/f","asOf":"2026-11-20","fees":{}}"#,
                "$.fees: expected at least one fee"
            ),
            (
                #"{"source":"https://v.example/f","asOf":"2026-02-30","fees":{"BTC":"1"}}"#,
                "$.asOf: '2026-02-30' is not a day, YYYY-MM-DD"
            ),
            (
                #"{"source":"https://v.example/f","asOf":"2026-11-20T00:00:00Z","fees":{"BTC":"1"}}"#,
                "$.asOf: '2026-11-20T00:00:00Z' is not a day, YYYY-MM-DD"
            ),
            (
                #"{"source":"http://v.example/f","asOf":"2026-11-20","fees":{"BTC":"1"}}"#,
                "$.source: expected the venue's https:// page"
            ),
            (
                #"{"source":"https://v.example/f","asOf":"2026-11-20","fees":{"BTC":"1"},"min":{}}"#,
                "$.min: unknown key 'min'; expected one of: source, asOf, fees"
            ),
            (
                #"{"source":"https://v.example/f","asOf":"2026-11-20","fees":{"BTC":"1","BTC":"2"}}"#,
                "$.fees.BTC: the key 'BTC' is given twice in one object"
            ),
        ])
    func malformed(text: String, problem: String) {
        #expect(throws: (any Error).self) { try Self.parse(text) }
        do {
            _ = try Self.parse(text)
        } catch {
            #expect(error.description == problem)
        }
    }

    @Test("the age: whole days from the start of asOf (UTC), never below 0")
    func age() throws {
        let table = WithdrawalFeeTable(source: "https://v.example/f", asOf: "2024-07-01", fees: ["BTC": 1])
        // 2024-08-08T08:12:15Z: July's 31 days and 7 more, 8 hours into the 38th.
        #expect(table.age(at: Timestamp(millisecondsSince1970: 1_723_104_735_000)) == 38)
        #expect(table.age(at: Timestamp(millisecondsSince1970: 1_719_792_000_000)) == 0)  // 2024-07-01T00:00Z
        #expect(table.age(at: Timestamp(millisecondsSince1970: 1_719_878_399_999)) == 0)  // 2024-07-01T23:59:59.999Z
        #expect(table.age(at: Timestamp(millisecondsSince1970: 1_719_878_400_000)) == 1)  // 2024-07-02T00:00Z
        #expect(table.age(at: Timestamp(millisecondsSince1970: 1_700_000_000_000)) == 0)  // before the day
        // 2024 is a leap year: 2024-02-28 to 2024-03-01 is two days.
        #expect(WithdrawalFeeTable.ageInDays(asOf: "2024-02-28", at: Timestamp(secondsSince1970: 1_709_251_200)) == 2)
        #expect(WithdrawalFeeTable.ageInDays(asOf: "2024-02-29", at: Timestamp(secondsSince1970: 1_709_251_200)) == 1)
        #expect(WithdrawalFeeTable.ageInDays(asOf: "2023-02-29", at: Timestamp(secondsSince1970: 1_709_251_200)) == nil)
    }
}
