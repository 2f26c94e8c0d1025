/// A trading pair in unified form: `base` priced in `quote`, written `BTC/KRW`.
///
/// Codes are upper-case ASCII letters and digits, 1 to 15 of them. They are validated when a
/// market is made from user text, so that nothing unchecked ever reaches a URL.
public struct Market: Hashable, Sendable, Comparable, CustomStringConvertible {
    public let base: String
    public let quote: String

    /// A market from codes already known to be valid (from an adapter's own decoding).
    public init(base: String, quote: String) {
        self.base = base
        self.quote = quote
    }

    /// Every market quoted in `currency`, as an answer about a whole quote currency names it
    /// (`ALL/USDT`): what a venue that serves no market in `currency` says is not listed.
    public static func all(quotedIn currency: String) -> Market {
        Market(base: "ALL", quote: currency)
    }

    /// `BASE/QUOTE`.
    public var description: String { "\(base)/\(quote)" }

    public static func < (lhs: Market, rhs: Market) -> Bool {
        (lhs.base, lhs.quote) < (rhs.base, rhs.quote)
    }

    /// Parses user text: `BTC` (with `defaultQuote`) or `BTC/KRW`, any case.
    ///
    /// - Throws: `AggError.invalidSymbol` when a code is empty, too long, or holds anything but
    ///   letters and digits (`../x`, `B%2FTC`, spaces).
    public static func parse(_ text: String, defaultQuote: String?) throws(AggError) -> Market {
        let parts = text.split(separator: "/", maxSplits: 2, omittingEmptySubsequences: false)
        switch parts.count {
        case 1:
            guard let defaultQuote else {
                throw .invalidSymbol(
                    text, reason: "name the quote currency, as in \(text.uppercased())/KRW")
            }
            return Market(base: try AssetCode.validate(String(parts[0]), in: text), quote: defaultQuote)
        case 2:
            return Market(
                base: try AssetCode.validate(String(parts[0]), in: text),
                quote: try AssetCode.validate(String(parts[1]), in: text)
            )
        default:
            throw .invalidSymbol(text, reason: "a symbol is BASE or BASE/QUOTE")
        }
    }
}

/// Validation of asset and currency codes typed by users.
public enum AssetCode {
    /// The longest code accepted.
    public static let maximumLength = 15

    /// The upper-cased code when `text` is 1 to 15 ASCII letters or digits.
    ///
    /// The text is checked before it is upper-cased: Unicode case mapping turns some non-ASCII
    /// letters into ASCII ones (`ß` → `SS`, `ﬁ` → `FI`, `ı` → `I`), which must not pass.
    public static func validate(_ text: String, in input: String? = nil) throws(AggError) -> String {
        let shown = input ?? text
        guard !text.isEmpty else { throw .invalidSymbol(shown, reason: "the code is empty") }
        guard text.utf8.count <= maximumLength else {
            throw .invalidSymbol(shown, reason: "codes are at most \(maximumLength) letters and digits")
        }
        guard text.utf8.allSatisfy({ isASCIIDigit($0) || isASCIILetter($0) }) else {
            throw .invalidSymbol(shown, reason: "codes hold only letters A-Z and digits 0-9")
        }
        return text.uppercased()
    }

    /// Whether `code` is already a valid upper-case code (1 to 15 of A-Z and 0-9), checked
    /// without allocating: for codes that come from a venue's own data.
    public static func isNormalized(_ code: String) -> Bool {
        var count = 0
        for byte in code.utf8 {
            guard (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) else { return false }
            count += 1
        }
        return count >= 1 && count <= maximumLength
    }

    /// The upper-cased ISO-style currency code when `text` is exactly three letters A-Z.
    public static func validateCurrency(_ text: String) throws(AggError) -> String {
        guard text.utf8.count == 3, text.utf8.allSatisfy(isASCIILetter) else {
            throw .invalidCurrency(text)
        }
        return text.uppercased()
    }

    private static func isASCIIDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    private static func isASCIILetter(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }
}
