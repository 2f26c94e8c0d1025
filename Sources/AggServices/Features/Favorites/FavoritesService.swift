import AggCore
import AggStore

/// What `agg favorites` did: the lists after the action, and the codes `remove` found in no
/// list.
package struct FavoritesReport: Sendable, Equatable {
    struct List: Sendable, Equatable {
        var kind: FavoriteKind
        var codes: [String]
    }

    var listing: [List]
    var notFavorites: [String]
}

/// `agg favorites`' use case: adds or removes the request's codes in the local database, then
/// reads the lists back (no terminal).
package struct FavoritesService: Sendable {
    /// Opens the database when the request is run (`LocalStore.open`, or a test's).
    var openStore: @Sendable () throws(AggError) -> Store

    package init(openStore: @escaping @Sendable () throws(AggError) -> Store) {
        self.openStore = openStore
    }

    /// - Throws: `AggError.store` when the database cannot be used (exit 70).
    package func run(_ request: FavoritesRequest) throws(AggError) -> FavoritesReport {
        let store = try openStore()
        var notFavorites: [String] = []
        switch request.action {
        case .add:
            for kind in FavoriteKind.allCases {
                let codes = request.entries.filter { $0.kinds.contains(kind) }.map(\.code)
                if !codes.isEmpty { try store.addFavorites(codes, kind: kind) }
            }
        case .remove:
            var removedSomewhere: Set<String> = []
            for kind in FavoriteKind.allCases {
                let codes = request.entries.filter { $0.kinds.contains(kind) }.map(\.code)
                guard !codes.isEmpty else { continue }
                let missing = Set(try store.removeFavorites(codes, kind: kind))
                removedSomewhere.formUnion(codes.filter { !missing.contains($0) })
            }
            notFavorites = request.entries.map(\.code).filter { !removedSomewhere.contains($0) }
        case .list:
            break
        }
        var listing: [FavoritesReport.List] = []
        for kind in FavoriteKind.allCases where request.only == nil || request.only == kind {
            listing.append(FavoritesReport.List(kind: kind, codes: try store.favorites(kind: kind)))
        }
        return FavoritesReport(listing: listing, notFavorites: notFavorites)
    }
}
