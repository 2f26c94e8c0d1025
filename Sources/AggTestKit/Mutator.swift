/// A deterministic random source (SplitMix64), so fuzz cases are the same on every run.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Damages fixture answers the ways networks and venues do: flipped, inserted and deleted
/// bytes, cuts, repeated chunks, absurd numbers, wrong types.
public enum Mutator {
    /// Absurd values spliced into documents in place of a value.
    static let absurdValues: [String] = [
        "1e999999", "-1e999999", String(repeating: "9", count: 5000), "\"" + String(repeating: "9", count: 5000) + "\"",
        "null", "true", "{}", "[]", "\"\"", "\"NaN\"", "\"-\"", "\"1,2,3\"", "0.0000000000000000000000000000000000001",
        "\"비트코인\"", "-0", "[[[[[[[[[[]]]]]]]]]]",
    ]

    /// One damaged copy of `body`.
    public static func mutate(_ body: [UInt8], using random: inout SeededRandom) -> [UInt8] {
        guard !body.isEmpty else { return randomBytes(count: 16, using: &random) }
        var bytes = body
        let position = Int.random(in: 0..<bytes.count, using: &random)
        switch Int.random(in: 0..<8, using: &random) {
        case 0:
            bytes[position] ^= UInt8.random(in: 1...255, using: &random)
        case 1:
            bytes.insert(UInt8.random(in: 0...255, using: &random), at: position)
        case 2:
            let end = min(bytes.count, position + Int.random(in: 1...64, using: &random))
            bytes.removeSubrange(position..<end)
        case 3:
            bytes.removeSubrange(position...)
        case 4:
            let end = min(bytes.count, position + Int.random(in: 1...256, using: &random))
            bytes.insert(contentsOf: bytes[position..<end], at: position)
        case 5:
            // Replace the value after a colon with something absurd.
            if let colon = bytes[position...].firstIndex(of: UInt8(ascii: ":")) {
                let valueEnd =
                    bytes[(colon + 1)...].firstIndex { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "}") }
                    ?? bytes.count
                let value = absurdValues[Int.random(in: 0..<absurdValues.count, using: &random)]
                bytes.replaceSubrange((colon + 1)..<valueEnd, with: Array(value.utf8))
            }
        case 6:
            // Turn a string value into a number or the other way round by dropping quotes.
            if let quote = bytes[position...].firstIndex(of: UInt8(ascii: "\"")) { bytes.remove(at: quote) }
        default:
            return randomBytes(count: Int.random(in: 0...512, using: &random), using: &random)
        }
        return bytes
    }

    /// `count` random bytes.
    public static func randomBytes(count: Int, using random: inout SeededRandom) -> [UInt8] {
        (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
    }
}
