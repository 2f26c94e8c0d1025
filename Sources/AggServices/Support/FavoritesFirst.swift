/// The listing order every command shares: favorites first, then the rest.
package enum FavoritesFirst {
    /// `items` with those whose `code` is among `favorites` moved to the front.
    ///
    /// The partition is stable: each group keeps the order `items` came in, so callers sort
    /// by code first when they want code order within both groups (as `agg rates` does), and
    /// `agg quote` keeps the order the symbols were asked in.
    static func order<Item>(
        _ items: [Item], favorites: Set<String>, code: (Item) -> String
    ) -> [Item] {
        guard !favorites.isEmpty else { return items }
        var first: [Item] = []
        var rest: [Item] = []
        for item in items {
            if favorites.contains(code(item)) { first.append(item) } else { rest.append(item) }
        }
        return first + rest
    }
}
