import AggCore
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
}
