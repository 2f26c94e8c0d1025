#if canImport(Glibc)
    import Glibc
#endif

/// Where the server listens: an IPv4 or IPv6 literal and a port (`127.0.0.1:8080`,
/// `[::1]:8080`, `0.0.0.0:8080`). Host names are refused: what a name resolves to, and so
/// whether it is loopback, can change.
public struct ListenAddress: Sendable, Equatable, CustomStringConvertible {
    public enum Family: Sendable, Equatable { case ipv4, ipv6 }

    public var host: String
    public var port: UInt16
    public var family: Family
    /// The address in network byte order (4 or 16 bytes).
    public var bytes: [UInt8]

    /// `127.0.0.1:8080`.
    public static let standard = ListenAddress(host: "127.0.0.1", port: 8080, family: .ipv4, bytes: [127, 0, 0, 1])

    /// Parses `HOST:PORT` with HOST an address literal (IPv6 in brackets); `nil` when malformed.
    public static func parse(_ text: String) -> ListenAddress? {
        let host: Substring
        let portText: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else {
                return nil
            }
            host = text[text.index(after: text.startIndex)..<close]
            portText = text[text.index(close, offsetBy: 2)...]
        } else {
            guard let colon = text.lastIndex(of: ":"), !text[..<colon].contains(":") else { return nil }
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
        }
        guard !portText.isEmpty, portText.count <= 5, portText.allSatisfy(\.isASCII),
            portText.allSatisfy(\.isNumber), let port = UInt16(portText)
        else { return nil }
        if let bytes = Self.bytes(String(host), family: AF_INET, count: 4) {
            return ListenAddress(host: String(host), port: port, family: .ipv4, bytes: bytes)
        }
        if let bytes = Self.bytes(String(host), family: AF_INET6, count: 16) {
            return ListenAddress(host: String(host), port: port, family: .ipv6, bytes: bytes)
        }
        return nil
    }

    /// Whether only this machine can connect: 127.0.0.0/8 or ::1.
    public var isLoopback: Bool {
        switch family {
        case .ipv4: bytes.first == 127
        case .ipv6: bytes == Array(repeating: 0, count: 15) + [1]
        }
    }

    public var description: String {
        family == .ipv6 ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    /// The same address with another port (0 asks the kernel for a free one).
    public func with(port: UInt16) -> ListenAddress {
        var copy = self
        copy.port = port
        return copy
    }

    private static func bytes(_ host: String, family: Int32, count: Int) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 16)
        let ok = buffer.withUnsafeMutableBytes { inet_pton(family, host, $0.baseAddress) }
        return ok == 1 ? Array(buffer[..<count]) : nil
    }
}
