/// What a favorite names: a fiat currency for FX views, or a coin symbol for quote views.
public enum FavoriteKind: String, Sendable, CaseIterable {
    /// A currency code such as `USD`.
    case currency
    /// A coin or market symbol such as `BTC`.
    case symbol
}
