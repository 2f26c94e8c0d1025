import AggCore
import FoundationEssentials

/// Finding markets by what a person types: a symbol (`ET`, `btc`, `BTC/KRW`) or, where the venue
/// publishes them, a Korean or English name (`비트코인`, `bitcoin`).
///
/// Matching ignores case and Unicode normalization (a Hangul query typed as decomposed jamo
/// still matches). The query is only compared with listings already fetched: it never goes into
/// a URL.
package enum MarketSearch {
    /// The longest query accepted, in characters.
    static let maximumQueryLength = 50

    /// How a listing matched, best first: results are ranked by this, then by symbol.
    package enum MatchKind: Int, Sendable, Comparable, CaseIterable {
        /// The symbol is the query (`eth` → ETH).
        case exactSymbol
        /// A name is the query (`비트코인` → BTC, before 비트코인캐시).
        case exactName
        /// The symbol starts with the query (`et` → ETC, ETH).
        case symbolPrefix
        /// A name starts with the query (`bitcoin` → Bitcoin, Bitcoin Cash).
        case namePrefix
        /// The symbol contains the query (`et` → VET).
        case symbolSubstring
        /// A name contains the query (`coin` → Bitcoin).
        case nameSubstring

        package static func < (lhs: MatchKind, rhs: MatchKind) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// A listing and how it matched.
    package struct Match: Sendable, Equatable {
        var listing: MarketListing
        var kind: MatchKind

        package init(listing: MarketListing, kind: MatchKind) {
            self.listing = listing
            self.kind = kind
        }
    }

    /// The query with surrounding white space removed, after checking that it is not empty, not
    /// longer than `maximumQueryLength` characters and free of control characters.
    static func validate(_ query: String) throws(AggError) -> String {
        let trimmed = ASCIIText.trimmed(query)
        guard !trimmed.isEmpty else { throw .usage("the search query is empty") }
        if let control = trimmed.unicodeScalars.first(where: isControl) {
            let code = String(control.value, radix: 16, uppercase: true)
            throw .usage(
                "the search query holds a control character (U+\(String(repeating: "0", count: max(0, 4 - code.count)) + code))"
            )
        }
        guard trimmed.count <= maximumQueryLength else {
            throw .usage("the search query is longer than \(maximumQueryLength) characters")
        }
        return trimmed
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .privateUse:
            true
        default: false
        }
    }

    /// Case-folded text for comparison. Normalization needs no step of its own: Swift compares
    /// `Character`s by canonical equivalence, so decomposed Hangul matches precomposed.
    static func fold(_ text: String) -> String {
        text.lowercased()
    }

    /// How `listing` matches `query` (already validated), or `nil`.
    ///
    /// The symbol is the base code (`ETH`), or the whole market (`ETH/KRW`) when the query holds a
    /// `/`. Names match with or without their spaces (`bitcoincash` finds "Bitcoin Cash").
    static func match(_ listing: MarketListing, query: String) -> MatchKind? {
        let folded = fold(query)
        let symbol = fold(folded.contains("/") ? listing.market.description : listing.market.base)
        if symbol == folded { return .exactSymbol }
        let names = [listing.koreanName, listing.englishName].compactMap { $0 }.map(fold)
        let spaceless = folded.filter { !$0.isWhitespace }
        func nameMatches(_ test: (String, String) -> Bool) -> Bool {
            names.contains { name in
                test(name, folded) || (!spaceless.isEmpty && test(name.filter { !$0.isWhitespace }, spaceless))
            }
        }
        if nameMatches({ $0 == $1 }) { return .exactName }
        if symbol.hasPrefix(folded) { return .symbolPrefix }
        if nameMatches({ $0.hasPrefix($1) }) { return .namePrefix }
        if symbol.contains(folded) { return .symbolSubstring }
        if nameMatches({ $0.contains($1) }) { return .nameSubstring }
        return nil
    }

    /// The listings that match `query`, best first: by `MatchKind`, then shorter symbols (the
    /// closer fit), then alphabetically, then by venue, then each venue's home currency first.
    ///
    /// - Parameter homeCurrencies: Each venue's home currency, by adapter id.
    static func rank(_ listings: [MarketListing], query: String, homeCurrencies: [String: String] = [:])
        -> [Match]
    {
        listings.compactMap { listing in match(listing, query: query).map { Match(listing: listing, kind: $0) } }
            .sorted { lhs, rhs in
                let left = sortKey(lhs, homeCurrencies)
                let right = sortKey(rhs, homeCurrencies)
                if left.kind != right.kind { return left.kind < right.kind }
                if left.length != right.length { return left.length < right.length }
                if left.base != right.base { return left.base < right.base }
                if left.exchange != right.exchange { return left.exchange < right.exchange }
                if left.notHome != right.notHome { return !left.notHome }
                return left.quote < right.quote
            }
    }

    private static func sortKey(_ match: Match, _ homes: [String: String]) -> (
        kind: MatchKind, length: Int, base: String, exchange: String, notHome: Bool, quote: String
    ) {
        let listing = match.listing
        return (
            match.kind, listing.market.base.count, listing.market.base, listing.exchange,
            homes[listing.exchange] != listing.market.quote, listing.market.quote
        )
    }
}
