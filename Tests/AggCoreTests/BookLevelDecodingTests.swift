import AggCore
import AggJSON
import FoundationEssentials
import Testing

@Suite("Order book levels from JSON")
struct BookLevelDecodingTests {
    @Test("keyed levels: the named fields, exact, in the venue's order")
    func keyed() throws {
        let side = JSONCursor(
            try JSONParser.parse(#"[{"price":"80640000.0","qty":"0.10472511"},{"price":1E+2,"qty":"5"}]"#))
        let levels = try BookLevel.levels(side, .keyed(price: "price", amount: "qty"))
        #expect(
            levels == [
                BookLevel(price: 80_640_000, amount: Decimal(string: "0.10472511") ?? .nan),
                BookLevel(price: 100, amount: 5),
            ])
    }

    @Test("pairs: the first two elements, whatever follows")
    func pairs() throws {
        let side = JSONCursor(try JSONParser.parse(#"[["61090.1","0.512",1723104735],["61090.0","2"]]"#))
        #expect(
            try BookLevel.levels(side, .pair) == [
                BookLevel(price: Decimal(string: "61090.1") ?? .nan, amount: Decimal(string: "0.512") ?? .nan),
                BookLevel(price: Decimal(string: "61090.0") ?? .nan, amount: 2),
            ])
    }

    @Test("a book is sorted: bids highest first, asks lowest first")
    func sorted() throws {
        let json = JSONCursor(
            try JSONParser.parse(#"{"bids":[["1","1"],["3","1"],["2","1"]],"asks":[["6","1"],["4","1"]]}"#))
        let market = Market(base: "BTC", quote: "KRW")
        let book = try OrderBook(
            exchange: "x", market: market, timestamp: nil, bids: json["bids"], asks: json["asks"], layout: .pair)
        #expect(book.bids.map(\.price) == [3, 2, 1])
        #expect(book.asks.map(\.price) == [4, 6])
    }

    @Test("a level that is not there or not a decimal names its path")
    func failures() throws {
        let json = JSONCursor(try JSONParser.parse(#"{"bids":[{"price":"1","quantity":"x"}],"asks":[["1"]]}"#))
        #expect(throws: JSONDecodingError(path: "$.bids[0].quantity", reason: "'x' is not a decimal number")) {
            _ = try BookLevel.levels(json["bids"], .keyed(price: "price", amount: "quantity"))
        }
        #expect(throws: JSONDecodingError(path: "$.asks[0][1]", reason: "expected a decimal, found nothing")) {
            _ = try BookLevel.levels(json["asks"], .pair)
        }
    }

    /// Rule 2 of issue 20: a level's price and amount are above zero and inside `ValueBounds`.
    static let outOfBounds: [(level: String, path: String, reason: String)] = [
        (#"["0","1"]"#, "$[0][0]", "'0' is not a positive price"),
        (#"["-5","1"]"#, "$[0][0]", "'-5' is not a positive price"),
        (#"["5","0"]"#, "$[0][1]", "'0' is not a positive size"),
        (#"["5","-1"]"#, "$[0][1]", "'-1' is not a positive size"),
        (#"["1e3","1"]"#, "$[0][0]", "'1e3' has an exponent: a decimal written as text must be written out in full"),
        (#"["1000000000000000","1"]"#, "$[0][0]", "'1000000000000000' is beyond any price (10^15 or more)"),
    ]

    @Test("a level priced or sized zero or less, or out of bounds, fails at its path", arguments: outOfBounds)
    func bounds(level: String, path: String, reason: String) throws {
        let json = JSONCursor(try JSONParser.parse("[" + level + "]"))
        #expect(throws: JSONDecodingError(path: path, reason: reason)) { _ = try BookLevel.levels(json, .pair) }
    }
}
