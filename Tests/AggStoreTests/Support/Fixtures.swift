import AggCore
import Foundation
import Testing

@testable import AggStore

/// An exact decimal from literal text; the text is a test constant, so a bad one fails the test.
func decimal(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Decimal {
    try #require(Decimal(string: text), "'\(text)' is not a decimal", sourceLocation: sourceLocation)
}

/// A rate table of `base` at `asOfSeconds` with the given rates as text.
func rateTable(
    base: String = "USD", asOfSeconds: Int64, rates: [String: String] = ["KRW": "1350.003043"],
    nextUpdateSeconds: Int64? = nil
) throws -> RateTable {
    RateTable(
        source: "exchangerate-api", base: base,
        rates: try rates.mapValues { text in try decimal(text) },
        asOf: Timestamp(secondsSince1970: asOfSeconds),
        nextUpdate: nextUpdateSeconds.map(Timestamp.init(secondsSince1970:))
    )
}

/// The message of the `AggError.store` that `body` throws; fails the test for any other outcome.
func storeErrorMessage(
    sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws(AggError) -> Void
) -> String? {
    do {
        try body()
        Issue.record("expected an AggError.store, but nothing was thrown", sourceLocation: sourceLocation)
    } catch {
        if case .store(let message) = error { return message }
        Issue.record("expected an AggError.store, got \(error)", sourceLocation: sourceLocation)
    }
    return nil
}

extension Store {
    /// The single integer a query returns, read behind the public API.
    func integer(_ sql: String) throws -> Int64? {
        try withConnection("inspect") { connection throws(SQLiteError) in
            try connection.query(sql) { row in row.int64(at: 0) }.first ?? nil
        }
    }
}
