import AggCore

/// How a venue writes a market: `{base}{quote}` (`BTCUSDT`), `{quote}-{base}` (`KRW-BTC`),
/// `{base}_{quote}` lower-case (`btc_krw`).
public struct SymbolTemplate: Sendable, Equatable {
    /// Letter case of the codes in the venue's symbols.
    public enum LetterCase: String, Sendable, Equatable, CaseIterable {
        case upper, lower
    }

    /// The template as written, with `{base}` and `{quote}` once each.
    public let template: String
    public let letterCase: LetterCase

    /// The template, or `nil` unless it holds `{base}` and `{quote}` exactly once each and
    /// otherwise only characters that are safe in a URL path (letters, digits, `-`, `_`, `.`,
    /// `~`, `:`).
    public init?(_ template: String, letterCase: LetterCase) {
        guard template.occurrences(of: "{base}") == 1, template.occurrences(of: "{quote}") == 1 else {
            return nil
        }
        let rest = template.replacingPlaceholder("{base}", with: "").replacingPlaceholder("{quote}", with: "")
        guard rest.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.~:".contains($0)) }) else {
            return nil
        }
        self.template = template
        self.letterCase = letterCase
    }

    /// A code in the venue's letter case.
    public func cased(_ code: String) -> String {
        letterCase == .lower ? code.lowercased() : code
    }

    /// The venue's symbol for `market`: `BTC/KRW` with `{quote}-{base}` is `KRW-BTC`.
    public func symbol(for market: Market) -> String {
        template.replacingPlaceholder("{base}", with: cased(market.base))
            .replacingPlaceholder("{quote}", with: cased(market.quote))
    }

    /// The market the venue's `symbol` names when it is quoted in `quote`, or `nil` when it is
    /// not (another quote currency, another shape, or a base that is not a valid code).
    public func market(from symbol: String, quote: String) -> Market? {
        let expected = template.replacingPlaceholder("{quote}", with: quote).uppercased()
        guard let hole = expected.firstRange(of: "{BASE}") else { return nil }
        let prefix = expected[..<hole.lowerBound]
        let suffix = expected[hole.upperBound...]
        let upper = symbol.uppercased()
        guard upper.count > prefix.count + suffix.count, upper.hasPrefix(prefix), upper.hasSuffix(suffix) else {
            return nil
        }
        let base = String(upper.dropFirst(prefix.count).dropLast(suffix.count))
        guard AssetCode.isNormalized(base) else { return nil }
        return Market(base: base, quote: quote)
    }

    /// The market `symbol` names in any of `quotes`, trying longer codes first so that
    /// `USDTBTC` under `{quote}{base}` is BTC/USDT rather than TBTC/USD.
    public func market(from symbol: String, quotes: [String]) -> Market? {
        for quote in quotes.sorted(by: { $0.count > $1.count }) {
            if let market = market(from: symbol, quote: quote) { return market }
        }
        return nil
    }
}
