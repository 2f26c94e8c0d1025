import AggCore
import AggJSON
import AggTestKit
import Foundation
import Testing

@testable import AggServices

private func favorites(_ arguments: [String], home: String) async -> CLIRun {
    await runCLI(["favorites"] + arguments, environment: ["AGG_HOME": home])
}

@Suite("agg favorites")
struct FavoritesCommandTests {
    @Test("a bare three-letter code goes to both lists, a longer one to coins; flags pick one list")
    func kinds() async throws {
        try await withTemporaryHome { home async throws in
            #expect(await favorites(["add", "krw", "JPY"], home: home).status == 0)
            #expect(await favorites(["add", "USDT", "1inch"], home: home).status == 0)
            #expect(await favorites(["add", "EUR", "--currency"], home: home).status == 0)
            #expect(await favorites(["add", "SOL", "--coin"], home: home).status == 0)
            let list = await favorites(["list", "-f", "json"], home: home)
            #expect(list.status == 0)
            #expect(
                list.output == #"{"currencies":["EUR","JPY","KRW"],"coins":["1INCH","JPY","KRW","SOL","USDT"]}"# + "\n")
            let currencies = await favorites(["list", "--currency", "-f", "json"], home: home)
            #expect(currencies.output == #"{"currencies":["EUR","JPY","KRW"]}"# + "\n")
        }
    }

    @Test("add and remove print the updated list (of the chosen kind); adding twice changes nothing")
    func addRemove() async throws {
        try await withTemporaryHome { home async throws in
            let add = await favorites(["add", "KRW", "KRW", "BTC", "-f", "csv"], home: home)
            #expect(add.status == 0)
            #expect(add.output == "kind,code\ncurrency,BTC\ncurrency,KRW\ncoin,BTC\ncoin,KRW\n")
            #expect(await favorites(["add", "KRW", "-f", "csv"], home: home).output == add.output)
            let remove = await favorites(["remove", "BTC", "--currency", "-f", "csv"], home: home)
            #expect(remove.status == 0)
            // With --currency, only the currency list is shown.
            #expect(remove.output == "kind,code\ncurrency,KRW\n")
            let both = await favorites(["remove", "krw", "-f", "json"], home: home)
            #expect(both.output == #"{"currencies":[],"coins":["BTC"]}"# + "\n")
        }
    }

    @Test("removing a code that is not a favorite: one line on stderr and exit 1; the others are removed")
    func removeMissing() async throws {
        try await withTemporaryHome { home async throws in
            _ = await favorites(["add", "KRW", "ETH"], home: home)
            let run = await favorites(["remove", "NOPE", "ETH", "XRP", "-f", "json"], home: home)
            #expect(run.status == 1)
            #expect(run.output == #"{"currencies":["KRW"],"coins":["KRW"]}"# + "\n")
            #expect(run.errorLines == ["agg: NOPE is not a favorite", "agg: XRP is not a favorite"])
        }
    }

    @Test("the table: one row per list; an empty store says how to add")
    func table() async throws {
        try await withTemporaryHome { home async throws in
            let empty = await favorites(["list", "-f", "table"], home: home)
            #expect(empty.status == 0)
            #expect(empty.output == "No favorites yet; add some with: agg favorites add KRW BTC\n")
            _ = await favorites(["add", "KRW", "JPY", "--currency"], home: home)
            _ = await favorites(["add", "BTC", "XRP", "--coin"], home: home)
            let run = await favorites(["list", "-f", "table"], home: home)
            #expect(run.output == "KIND      CODES\ncurrency  JPY KRW\ncoin      BTC XRP\n")
        }
    }

    @Test(
        "bad command lines exit 64 with one line, before the database is made",
        arguments: [
            (["add", "US$"], "invalid symbol 'US$'"),
            (["add", "KRW", "ABCDEFGHIJKLMNOP"], "invalid symbol 'ABCDEFGHIJKLMNOP'"),
            (["add", "USDT", "--currency"], "invalid currency code 'USDT'"),
            (["add", "BTC/KRW", "--coin"], "invalid symbol 'BTC/KRW'"),
            (["add"], "name at least one CODE to add"),
            (["remove"], "name at least one CODE to remove"),
            (["list", "KRW"], "unexpected argument 'KRW'"),
            (["lsit"], "unknown action 'lsit'; did you mean 'list'?"),
            (["frobnicate"], "unknown action 'frobnicate'; expected one of: add, remove, list"),
            (["add", "KRW", "--currency", "--coin"], "give --currency or --coin, not both"),
            ([], "'agg favorites' needs more arguments"),
        ])
    func usageErrors(arguments: [String], message: String) async {
        let home = unusedTemporaryPath()
        let run = await favorites(arguments, home: home)
        #expect(run.status == 64)
        #expect(run.errorLines.count == 1)
        #expect(run.error.contains(message))
        #expect(!FileManager.default.fileExists(atPath: home))
    }

    @Test("a database that cannot be used: exit 70 with one line naming the file")
    func storeFailure() async throws {
        try await withTemporaryHome { home async throws in
            let path = home + "/agg.sqlite"
            #expect(FileManager.default.createFile(atPath: path, contents: Data(repeating: 0xA5, count: 8192)))
            let run = await favorites(["list"], home: home)
            #expect(run.status == 70)
            #expect(run.errorLines.count == 1)
            #expect(run.error.hasPrefix("agg: database: cannot open \(path): "))
        }
    }
}

@Suite("favorites in agg quote")
struct QuoteFavoritesTests {
    @Test("favorite coins' rows come first; the rest keep the order asked for")
    func quoteOrder() async throws {
        try await withTemporaryHome { home async throws in
            _ = await favorites(["add", "XRP", "--coin"], home: home)
            let run = await runCLI(
                ["quote", "BTC", "ETH", "XRP", "-e", "bithumb", "--offline", "-f", "json"],
                environment: ["AGG_HOME": home])
            #expect(run.status == 0)
            #expect(
                try run.json()["quotes"].elements().map { try $0["symbol"].string() } == [
                    "XRP/KRW", "BTC/KRW", "ETH/KRW",
                ])
            let table = await runCLI(
                ["quote", "BTC", "ETH", "XRP", "-e", "bithumb", "--offline", "-f", "table"],
                environment: ["AGG_HOME": home])
            #expect(
                table.output.split(separator: "\n").dropFirst().map { $0.split(separator: " ")[1] } == [
                    "XRP/KRW", "BTC/KRW", "ETH/KRW",
                ])
        }
    }

    @Test("--all: favorites first, then the rest in code order")
    func quoteAll() async throws {
        try await withTemporaryHome { home async throws in
            _ = await favorites(["add", "XRP", "ETH", "--coin"], home: home)
            let run = await runCLI(
                ["quote", "--all", "-e", "bithumb", "--offline", "-f", "json"], environment: ["AGG_HOME": home])
            let symbols = try run.json()["quotes"].elements().map { try $0["symbol"].string() }
            #expect(symbols.count == 480)
            #expect(Array(symbols.prefix(2)) == ["ETH/KRW", "XRP/KRW"])
            #expect(Array(symbols.dropFirst(2)) == Array(symbols.dropFirst(2)).sorted())
        }
    }

    @Test("quote never creates a database, and works in the usual order when it cannot read one")
    func quoteWithoutStore() async throws {
        let missing = unusedTemporaryPath()
        let fresh = await runCLI(
            ["quote", "XRP", "BTC", "-e", "bithumb", "--offline", "-f", "json"], environment: ["AGG_HOME": missing])
        #expect(fresh.status == 0)
        #expect(!FileManager.default.fileExists(atPath: missing))
        #expect(try fresh.json()["quotes"].elements().map { try $0["symbol"].string() } == ["XRP/KRW", "BTC/KRW"])

        try await withTemporaryHome { home async throws in
            #expect(
                FileManager.default.createFile(
                    atPath: home + "/agg.sqlite", contents: Data(repeating: 0x5A, count: 8192)))
            let run = await runCLI(
                ["quote", "XRP", "BTC", "-e", "bithumb", "--offline", "-f", "json"], environment: ["AGG_HOME": home])
            #expect(run.status == 0)
            #expect(
                run.errorLines == [
                    "agg: offline: bithumb answers from a recorded snapshot from 2024-08-08T08:12:15Z, with some sample data"
                ])
            #expect(try run.json()["quotes"].elements().map { try $0["symbol"].string() } == ["XRP/KRW", "BTC/KRW"])
        }
    }
}

@Suite("FavoritesFirst")
struct FavoritesFirstTests {
    @Test(
        "a stable partition: favorites first, each group in its given order",
        arguments: [
            (["AED", "EUR", "JPY", "KRW", "USD"], ["KRW", "JPY"], ["JPY", "KRW", "AED", "EUR", "USD"]),
            (["XRP", "BTC", "ETH"], ["ETH", "NOPE"], ["ETH", "XRP", "BTC"]),
            (["B", "A"], [], ["B", "A"]),
            ([], ["A"], []),
            (["A", "B"], ["A", "B"], ["A", "B"]),
        ])
    func order(items: [String], favorites: [String], expected: [String]) {
        #expect(FavoritesFirst.order(items, favorites: Set(favorites)) { $0 } == expected)
    }
}
