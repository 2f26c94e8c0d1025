/// The shared secret clients present as `Authorization: Bearer <token>`.
///
/// The comparison takes the same time whatever the sent token shares with the real one (it
/// reads every byte of both), so that timing does not reveal the token byte by byte.
public struct BearerToken: Sendable {
    private let secret: [UInt8]

    /// `nil` for an empty token: an empty secret would let anyone in.
    public init?(_ token: String) {
        guard !token.isEmpty else { return nil }
        secret = Array(token.utf8)
    }

    /// Whether `header` (the `Authorization` value) carries this token.
    public func accepts(_ header: String?) -> Bool {
        guard let header else { return false }
        let prefix = Array("Bearer ".utf8)
        let sent = Array(header.utf8)
        guard sent.count >= prefix.count, Self.equalFolded(Array(sent[..<prefix.count]), prefix) else {
            return false
        }
        return Self.constantTimeEqual(Array(sent[prefix.count...]), secret)
    }

    /// Equal bytes, in time that depends only on the lengths.
    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        var difference = UInt(a.count ^ b.count)
        let count = max(a.count, b.count)
        for index in 0..<count {
            let x = index < a.count ? a[index] : 0
            let y = index < b.count ? b[index] : 0
            difference |= UInt(x ^ y)
        }
        return difference == 0
    }

    /// The scheme name is case-insensitive (RFC 9110, 11.1).
    private static func equalFolded(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        zip(a, b).allSatisfy { x, y in (x | 0x20) == (y | 0x20) || x == y }
    }
}
