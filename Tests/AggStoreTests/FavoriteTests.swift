import AggCore
import Testing

@testable import AggStore

@Suite("Favorites")
struct FavoriteTests {
    @Test("adding is idempotent and listing is sorted by code")
    func add() async throws {
        try await withTemporaryDirectory { folder in
            let store = try Store.open(path: folder + "/agg.sqlite")
            #expect(try store.favorites(kind: .currency) == [])
            try store.addFavorites(["USD", "JPY", "EUR"], kind: .currency)
            try store.addFavorites(["JPY", "USD", "KRW"], kind: .currency)
            #expect(try store.favorites(kind: .currency) == ["EUR", "JPY", "KRW", "USD"])
        }
    }

    @Test("kinds are separate lists")
    func kinds() async throws {
        try await withTemporaryDirectory { folder in
            let store = try Store.open(path: folder + "/agg.sqlite")
            try store.addFavorites(["BTC", "ETH"], kind: .symbol)
            try store.addFavorites(["USD"], kind: .currency)
            #expect(try store.favorites(kind: .symbol) == ["BTC", "ETH"])
            #expect(try store.favorites(kind: .currency) == ["USD"])
            #expect(try store.removeFavorites(["USD"], kind: .symbol) == ["USD"])
            #expect(try store.favorites(kind: .currency) == ["USD"])
        }
    }

    @Test("removing answers the codes that were not favorites")
    func remove() async throws {
        try await withTemporaryDirectory { folder in
            let store = try Store.open(path: folder + "/agg.sqlite")
            try store.addFavorites(["BTC", "ETH", "XRP"], kind: .symbol)
            let missing = try store.removeFavorites(["ETH", "DOGE", "BTC", "ETH", "DOGE", "SOL"], kind: .symbol)
            #expect(missing == ["DOGE", "SOL"])
            #expect(try store.favorites(kind: .symbol) == ["XRP"])
            #expect(try store.removeFavorites([], kind: .symbol) == [])
        }
    }
}
