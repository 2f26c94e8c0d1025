import AggCore

/// Kraken's names for assets and pairs, and the way back to unified markets.
///
/// Kraken calls BTC `XBT` and DOGE `XDG`. It is asked for a pair by its alternative name
/// (`XBTUSD`) but answers under its own pair name, which for the assets it listed first carries
/// four-letter legacy names, `X` for crypto and `Z` for fiat (`XXBTZUSD`, `XETHXXBT`), and for
/// the others is the plain concatenation (`SOLUSD`, `XBTUSDT`, `USDTZUSD`).
enum KrakenPairs {
    /// The quote currencies agg asks Kraken for, the main one first.
    static let quoteCurrencies = ["USD", "EUR", "USDT"]

    /// Kraken's three-letter names that differ from the usual codes.
    static let krakenNames = ["BTC": "XBT", "DOGE": "XDG"]
    /// The usual codes of Kraken's differing names.
    static let unifiedNames = Dictionary(uniqueKeysWithValues: krakenNames.map { ($1, $0) })

    /// The assets whose pair names use four-letter legacy names (their Kraken name after the
    /// `X` or `Z`).
    static let legacyCrypto: Set<String> = [
        "XBT", "ETH", "LTC", "XRP", "XLM", "XDG", "ETC", "MLN", "REP", "XMR", "ZEC",
    ]
    static let legacyFiat: Set<String> = ["USD", "EUR", "GBP", "CAD", "JPY", "AUD", "CHF"]

    /// Kraken's name for an asset code: `BTC` → `XBT`.
    static func krakenName(_ code: String) -> String {
        krakenNames[code] ?? code
    }

    /// The usual code of a Kraken asset name, legacy prefix removed: `XXBT` → `BTC`,
    /// `ZUSD` → `USD`, `SOL` → `SOL`.
    static func unifiedCode(_ name: String) -> String {
        var name = name
        if name.count == 4, let first = name.first {
            let rest = String(name.dropFirst())
            if (first == "X" && legacyCrypto.contains(rest)) || (first == "Z" && legacyFiat.contains(rest)) {
                name = rest
            }
        }
        return unifiedNames[name] ?? name
    }

    /// The alternative name agg asks for: `BTC/USD` → `XBTUSD`.
    static func name(_ market: Market) -> String {
        krakenName(market.base) + krakenName(market.quote)
    }

    /// The market of a pair name Kraken answers under, given the quote currency it must be in,
    /// or `nil` when the name does not end in that quote.
    ///
    /// The quote is matched first in its legacy spelling (`ZUSD`) with at least four characters
    /// before it (a legacy name or a four-letter code: `XXBTZUSD`, `USDTZUSD`), then in its plain
    /// one (`USD`): so `XTZUSD` is Tezos in dollars, not `XT` in `ZUSD`.
    static func market(fromPairName pairName: String, quote: String) -> Market? {
        let plain = krakenName(quote)
        var baseName: String?
        if legacyFiat.contains(quote) || legacyCrypto.contains(plain) {
            let legacy = (legacyFiat.contains(quote) ? "Z" : "X") + plain
            if pairName.hasSuffix(legacy), pairName.count - legacy.count >= 4 {
                baseName = String(pairName.dropLast(legacy.count))
            }
        }
        if baseName == nil, pairName.hasSuffix(plain), pairName.count > plain.count {
            baseName = String(pairName.dropLast(plain.count))
        }
        guard let baseName else { return nil }
        let base = unifiedCode(baseName)
        guard AssetCode.isNormalized(base), base != quote else { return nil }
        return Market(base: base, quote: quote)
    }

    /// How Kraken writes a pair's `wsname` in its list (`XBT/USD`), for the quotes agg asks for.
    static let webSocketCode = MarketCode(separator: "/", quotes: quoteCurrencies) { unifiedCode($0) }

    /// The market of a `wsname` (`XBT/USD` → `BTC/USD`), or `nil` when it is not `BASE/QUOTE`
    /// with valid codes.
    static func market(fromWebSocketName wsname: String) -> Market? {
        let parts = wsname.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        let base = unifiedCode(String(parts[0]))
        let quote = unifiedCode(String(parts[1]))
        guard AssetCode.isNormalized(base), AssetCode.isNormalized(quote) else { return nil }
        return Market(base: base, quote: quote)
    }
}
