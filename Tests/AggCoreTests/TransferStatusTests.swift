import AggCore
import FoundationEssentials
import Testing

/// A coin counts as closed on a venue when deposits or withdrawals are closed on every network.
@Suite("transfer status summary")
struct TransferStatusTests {
    static func row(_ deposit: TransferState, _ withdraw: TransferState) -> TransferStatus {
        TransferStatus(exchange: "v", coin: "USDT", deposit: deposit, withdraw: withdraw)
    }

    @Test(
        "per venue and coin",
        arguments: [
            ([TransferStatus](), TransferState.unknown),
            ([row(.open, .open)], .open),
            ([row(.open, .closed), row(.open, .open)], .open),
            ([row(.open, .closed), row(.closed, .open)], .open),
            ([row(.closed, .open), row(.closed, .open)], .closed),
            ([row(.open, .closed), row(.open, .closed)], .closed),
            ([row(.closed, .closed)], .closed),
            ([row(.unknown, .unknown)], .unknown),
            ([row(.open, .unknown)], .unknown),
            ([row(.unknown, .closed)], .closed),
        ])
    func summary(rows: [TransferStatus], expected: TransferState) {
        #expect(TransferStatus.summary(rows) == expected)
    }

    @Test("a fixed fee is the venue's; a percentage has no fixed figure")
    func withdrawalFee() {
        let fixed = TransferStatus(
            exchange: "korbit", coin: "BTC", deposit: .open, withdraw: .open, withdrawFee: 0.0002)
        #expect(fixed.withdrawal == .fixed(Decimal(string: "0.0002")!))
        #expect(fixed.withdrawFee == Decimal(string: "0.0002")!)
        #expect(fixed.feeSource == .venue)
        let none = TransferStatus(exchange: "upbit", coin: "BTC", deposit: .open, withdraw: .open)
        #expect(none.withdrawal == nil && none.feeSource == nil)
        let share = TransferStatus(
            exchange: "bithumb", coin: "XRP", deposit: .open, withdraw: .open,
            withdrawal: .percentage(rate: Decimal(string: "0.001")!, minimum: 1, maximum: 20), withdrawMinimum: 10,
            feeSource: .table(source: "https://example.org/fees", asOf: "2026-11-20"))
        #expect(share.withdrawFee == nil)
        #expect(share.withdrawMinimum == 10)
        #expect(share.feeSource == .table(source: "https://example.org/fees", asOf: "2026-11-20"))
    }
}
