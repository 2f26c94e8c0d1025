/// The one check of a venue's base URL given from outside agg: the config file's `baseURLs`,
/// `AGG_<ID>_URL` and a venue's data file. agg builds every request by appending a path to it,
/// so anything after the path (a query, a fragment) or before the host (user info) would send
/// requests somewhere other than where they seem to go.
public enum BaseURL {
    /// What a base URL must be, for error messages: "expected \(requirement)".
    public static let requirement = "an http:// or https:// URL with a host and no user info, query or fragment"

    /// Whether `text` is `http://` or `https://`, then a host (a name, an IPv4 address or an
    /// IPv6 address in brackets) with an optional port, then an optional path; with no `@`
    /// before the path, no `?` or `#`, and no white space or control character anywhere.
    public static func isValid(_ text: String) -> Bool {
        let forbidden = text.unicodeScalars.contains {
            $0.properties.isWhitespace || $0.properties.generalCategory == .control || $0 == "?" || $0 == "#"
        }
        guard !forbidden else { return false }
        let rest: Substring
        if text.hasPrefix("http://") {
            rest = text.dropFirst("http://".count)
        } else if text.hasPrefix("https://") {
            rest = text.dropFirst("https://".count)
        } else {
            return false
        }
        return isAuthority(rest.prefix { $0 != "/" })
    }

    /// `host`, `host:port`, `[ipv6]` or `[ipv6]:port`.
    private static func isAuthority(_ authority: Substring) -> Bool {
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return false }
            let address = authority[authority.index(after: authority.startIndex)..<close]
            guard !address.isEmpty, address.utf8.allSatisfy(isAddressByte) else {
                return false
            }
            let after = authority[authority.index(after: close)...]
            return after.isEmpty || (after.hasPrefix(":") && isPort(after.dropFirst()))
        }
        let colon = authority.firstIndex(of: ":")
        let host = authority[..<(colon ?? authority.endIndex)]
        guard !host.isEmpty, host.utf8.allSatisfy(isHostByte) else { return false }
        return colon.map { isPort(authority[authority.index(after: $0)...]) } ?? true
    }

    /// ASCII hexadecimal digits, `:` and `.` (an IPv6 address, perhaps ending in IPv4 form;
    /// `Character.isHexDigit` would also take fullwidth digits).
    private static func isAddressByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "f"), UInt8(ascii: "A")...UInt8(ascii: "F"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: ":"), UInt8(ascii: "."):
            true
        default: false
        }
    }

    /// ASCII letters, digits, `-`, `.` and `_`.
    private static func isHostByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"):
            true
        default: false
        }
    }

    /// 1 to 5 digits, at most 65535.
    private static func isPort(_ text: Substring) -> Bool {
        guard (1...5).contains(text.utf8.count), text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
            return false
        }
        return Int(text).map { $0 <= 65_535 } ?? false
    }
}
