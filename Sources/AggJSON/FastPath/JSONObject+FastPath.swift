/// The fast path of `JSONObject`'s name comparison, beside its plain version. Its oracle test
/// (`JSONObjectFastPathOracleTests`) requires the same answer as `sameName` on every pair of
/// short names over letters and combining marks, and on the member names of every fixture.
extension JSONObject {
    /// The plain version: Swift's `==` on strings (canonical equivalence).
    static func sameName(_ left: String, _ right: String) -> Bool {
        left == right
    }

    /// `sameName(left, right)`, decided on the bytes when they suffice: decoders look up a dozen
    /// names in each of thousands of objects, and a generic string comparison of two different
    /// names cost more than the rest of the lookup. Equal bytes are equal strings. Texts whose first
    /// difference is an ASCII byte in both (the end of a text counting as one) are different
    /// strings: an ASCII character is its own canonical decomposition and no combining mark
    /// reorders across it, so their normalized forms differ there too. Any other difference
    /// (a non-ASCII byte, which may be another spelling of the same character, such as the
    /// Kelvin sign for K) is left to the plain version.
    @inline(__always)
    static func sameNameFastPath(_ left: String, _ right: String) -> Bool {
        let decided = left.utf8.withContiguousStorageIfAvailable { a in
            right.utf8.withContiguousStorageIfAvailable { b in decide(a, b) } ?? nil
        }
        if let decided = decided ?? nil { return decided }
        return sameName(left, right)
    }

    /// `true` for equal bytes, `false` when the first difference is ASCII in both, else `nil`.
    ///
    /// Sound: both buffers are the strings' own contiguous UTF-8, read only inside the closures
    /// that lend them, at indices below their counts.
    @inline(__always)
    private static func decide(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool? {
        let shorter = Swift.min(a.count, b.count)
        var index = 0
        while index < shorter, a[index] == b[index] { index += 1 }
        if index == a.count, index == b.count { return true }
        let x = index < a.count ? a[index] : 0
        let y = index < b.count ? b[index] : 0
        return x < 0x80 && y < 0x80 ? false : nil
    }
}
