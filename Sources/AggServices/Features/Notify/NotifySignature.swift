import CCrypto

/// The signature of a webhook's body: `X-Agg-Signature: sha256=<hex HMAC-SHA256(secret, body)>`,
/// so that a receiver can tell agg's alerts from anyone else's POST.
package enum NotifySignature {
    /// The header's name.
    package static let header = "X-Agg-Signature"

    /// The 32-byte HMAC-SHA256 of `message` under `key` (RFC 2104), from OpenSSL's libcrypto.
    package static func hmacSHA256(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var mac = [UInt8](repeating: 0, count: 32)
        let ok = key.withUnsafeBufferPointer { key in
            message.withUnsafeBufferPointer { message in
                mac.withUnsafeMutableBufferPointer { mac in
                    agg_hmac_sha256(key.baseAddress, key.count, message.baseAddress, message.count, mac.baseAddress)
                }
            }
        }
        // libcrypto fails only without memory; an all-zero MAC then fails every check.
        return ok == 1 ? mac : [UInt8](repeating: 0, count: 32)
    }

    /// The header's value for `body`: `sha256=` and the MAC in lower-case hex.
    package static func value(secret: [UInt8], body: [UInt8]) -> String {
        "sha256=" + hex(hmacSHA256(key: secret, message: body))
    }

    /// Lower-case hex of `bytes`.
    package static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
