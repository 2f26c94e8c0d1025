import FoundationEssentials

/// The fast path of `DecimalText.plainFormat` (Foundation's `description`): a `Decimal` taken
/// apart (sign, the integer mantissa exactly as stored, the power of ten), and its text written
/// from those parts. `DecimalText.format`, `write` and `append` go through it; its oracle test
/// (`DecimalTextFastPathOracleTests`) requires the same bytes as the plain version on every
/// decimal in the fixtures, on edge cases and on random values.
///
/// Foundation's `description` divides the whole 128-bit mantissa by ten once per digit and
/// builds the text a character at a time, backwards; on a market-wide answer that was most of
/// agg's time.
///
/// FoundationEssentials keeps a `Decimal` in 20 bytes: the exponent (`Int8`), a byte holding the
/// mantissa's length in 16-bit words (high 4 bits) and the sign (bit 3), two reserved bytes, and
/// eight little-endian 16-bit words of mantissa, least significant first. It does not make the
/// mantissa public, so it is read from those bytes. The layout is an implementation detail, so
/// it is checked once per process on values built from known parts that exercise every field
/// (`layoutIsKnown`); on any other layout every value goes through `description` instead, so a
/// change in Foundation can make agg slower, never wrong. The text written from the parts is
/// checked against `description` by the tests, on every decimal in the fixtures.
struct DecimalTextFastPath {
    var negative: Bool
    var exponent: Int
    var mantissa: UInt128
    /// The number of decimal digits in `mantissa` (at least 1).
    var digitCount: Int

    /// The parts of `value`, or `nil` for NaN, for zero, or when the layout is not the known one.
    init?(_ value: Decimal) {
        guard Self.layoutIsKnown, let raw = Self.read(value) else { return nil }
        self = raw
    }

    private init(negative: Bool, exponent: Int, mantissa: UInt128) {
        self.negative = negative
        self.exponent = exponent
        self.mantissa = mantissa
        // Whole chunks of 19 digits below the top one, then the top one's digits, in 64-bit
        // arithmetic: 128-bit division is slow.
        var count = 0
        var top = mantissa
        while top > UInt128(UInt64.max) {
            top /= Self.chunk
            count += 19
        }
        self.digitCount = count + Self.digits(UInt64(top))
    }

    /// The number of decimal digits of `value` (1 to 20): the bit length times log10(2)
    /// (1233 / 4096 is close enough for every length up to 64) is the count or one less, and
    /// one comparison with a power of ten decides which.
    private static func digits(_ value: UInt64) -> Int {
        let bits = 64 - (value | 1).leadingZeroBitCount
        let estimate = (bits &* 1233) >> 12
        return value >= powersOfTen[estimate] ? estimate + 1 : estimate
    }

    /// 10^0 to 10^19.
    private static let powersOfTen: [UInt64] = (0..<20).map { power in
        (0..<power).reduce(1) { value, _ in value * 10 }
    }

    /// 10^19, the largest power of ten in a `UInt64`.
    private static let chunk: UInt128 = 10_000_000_000_000_000_000

    /// Reads the stored fields; `nil` for NaN and zero (length 0), for an impossible length, and
    /// for a zero mantissa, which `description` prints in its own way.
    private static func read(_ value: Decimal) -> DecimalTextFastPath? {
        guard MemoryLayout<Decimal>.size == 20 else { return nil }
        // Sound: the raw bytes are those of a local copy of `value`, read only inside the
        // closure, and only at offsets 0 to 19 of its 20 bytes (checked just above); the loads
        // are unaligned loads of plain integers, valid at any offset. Whether those bytes mean
        // what this reads is checked once by `layoutIsKnown`, which every caller requires.
        return withUnsafeBytes(of: value) { raw -> DecimalTextFastPath? in
            let exponent = Int8(bitPattern: raw[0])
            let flags = raw[1]
            let length = Int(flags >> 4)
            guard (1...8).contains(length) else { return nil }
            // Two unaligned 64-bit loads, then only the words in use.
            let low = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 4, as: UInt64.self))
            let mantissa: UInt128
            if length <= 4 {
                // The usual case: a mantissa of four words or fewer, in 64-bit arithmetic.
                mantissa = UInt128(length == 4 ? low : low & ((1 << (16 * UInt64(length))) - 1))
            } else {
                let high = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 12, as: UInt64.self))
                var wide = UInt128(high) << 64 | UInt128(low)
                if length < 8 { wide &= (UInt128(1) << (16 * length)) - 1 }
                mantissa = wide
            }
            guard mantissa != 0 else { return nil }
            return DecimalTextFastPath(negative: flags & 0x08 != 0, exponent: Int(exponent), mantissa: mantissa)
        }
    }

    /// Whether `read` understands this Foundation's `Decimal`: values built from known parts
    /// (a sign, an exponent of either sign, and mantissas of one, two, four and all eight words)
    /// read back as those parts. Computed once per process, without asking Foundation for any
    /// text: `description` took 0.7 M instructions here, more than a one-coin quote's output.
    static let layoutIsKnown: Bool = {
        let wide = Decimal(UInt64.max) * Decimal(UInt64.max)
        // (2^64 - 1)^2, exactly: eight words.
        let wideMantissa = UInt128(UInt64.max) * UInt128(UInt64.max - 1) + UInt128(UInt64.max)
        let probes: [(Decimal, negative: Bool, exponent: Int, mantissa: UInt128)] = [
            (Decimal(sign: .minus, exponent: -3, significand: Decimal(12_345)), true, -3, 12_345),
            (Decimal(sign: .plus, exponent: 7, significand: Decimal(65_537)), false, 7, 65_537),
            (Decimal(UInt64.max), false, 0, UInt128(UInt64.max)),
            (wide, false, 0, wideMantissa),
            (Decimal(sign: .minus, exponent: -128, significand: wide), true, -128, wideMantissa),
        ]
        return probes.allSatisfy { value, negative, exponent, mantissa in
            guard let parts = read(value) else { return false }
            return parts.negative == negative && parts.exponent == exponent && parts.mantissa == mantissa
        }
    }()

    /// The text, as `DecimalText.plainFormat` writes it.
    @inline(__always)
    var text: String {
        // Sound: `write` initializes exactly the bytes it answers, at most `textLength`, and
        // writes only ASCII, so the String is valid UTF-8.
        String(unsafeUninitializedCapacity: textLength) { buffer in
            write(into: buffer)
        }
    }

    /// Appends the text as UTF-8 to `bytes`.
    @inline(__always)
    func append(to bytes: inout [UInt8]) {
        // Sound: the temporary buffer holds `textLength` bytes, all that `write` may touch, and
        // only the `count` bytes it wrote are read back, inside the closure that owns it.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: textLength) { buffer in
            let count = write(into: buffer)
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[..<count]))
        }
    }

    /// The length of the text in bytes.
    var textLength: Int {
        let sign = negative ? 1 : 0
        if exponent >= 0 { return sign + digitCount + exponent }
        let fractionDigits = -exponent
        // "iii.fff", or "0.000ddd" when every digit is in the fraction.
        return sign + (digitCount > fractionDigits ? digitCount + 1 : fractionDigits + 2)
    }

    /// Writes the text into the start of `buffer`, which holds at least `textLength` bytes (every
    /// index below is under `textLength`: the sign, the digits, the point and the zeros it
    /// counts; the buffer's subscript checks it in debug builds), and
    /// answers the bytes written. The shape is `description`'s: every stored digit of the
    /// mantissa (trailing zeros included), zeros for a positive exponent, and a leading `0.`
    /// when the integer part is empty.
    @discardableResult
    func write(into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
        var index = 0
        if negative {
            buffer[index] = UInt8(ascii: "-")
            index += 1
        }
        let fractionDigits = max(0, -exponent)
        if fractionDigits >= digitCount {
            buffer[index] = UInt8(ascii: "0")
            buffer[index + 1] = UInt8(ascii: ".")
            index += 2
            for _ in 0..<(fractionDigits - digitCount) {
                buffer[index] = UInt8(ascii: "0")
                index += 1
            }
            writeDigits(into: buffer, at: index)
            return index + digitCount
        }
        if fractionDigits > 0, mantissa <= UInt128(UInt64.max) {
            // The fraction's digits after the point, then the integer's before it: no moving.
            let end = index + digitCount + 1
            let integer = Self.writeLowDigits(UInt64(mantissa), count: fractionDigits, into: buffer, before: end)
            let point = end - fractionDigits - 1
            buffer[point] = UInt8(ascii: ".")
            _ = Self.writeLowDigits(integer, count: digitCount - fractionDigits, into: buffer, before: point)
            return end
        }
        writeDigits(into: buffer, at: index)
        index += digitCount
        if fractionDigits > 0 {
            // Make room for the point before the fraction's digits.
            let point = index - fractionDigits
            var move = index
            while move > point {
                buffer[move] = buffer[move - 1]
                move -= 1
            }
            buffer[point] = UInt8(ascii: ".")
            index += 1
        }
        for _ in 0..<max(0, exponent) {
            buffer[index] = UInt8(ascii: "0")
            index += 1
        }
        return index
    }

    /// "00" to "99", for writing two digits per division.
    private static let digitPairs: StaticString = """
        00010203040506070809101112131415161718192021222324252627282930313233343536373839\
        40414243444546474849505152535455565758596061626364656667686970717273747576777879\
        8081828384858687888990919293949596979899
        """

    /// Writes the mantissa's `digitCount` digits from `start`.
    private func writeDigits(into buffer: UnsafeMutableBufferPointer<UInt8>, at start: Int) {
        if mantissa <= UInt128(UInt64.max) {
            _ = Self.writeLowDigits(UInt64(mantissa), count: digitCount, into: buffer, before: start + digitCount)
            return
        }
        var position = start + digitCount
        var rest = mantissa
        var remaining = digitCount
        while remaining > 0 {
            // Nineteen digits at a time, the last chunk in 64-bit arithmetic.
            if rest <= UInt128(UInt64.max) {
                _ = Self.writeLowDigits(UInt64(rest), count: remaining, into: buffer, before: position)
                return
            }
            let digits = UInt64(rest % Self.chunk)
            rest /= Self.chunk
            _ = Self.writeLowDigits(digits, count: 19, into: buffer, before: position)
            position -= 19
            remaining -= 19
        }
    }

    /// Writes the lowest `count` decimal digits of `value` (with leading zeros when it has
    /// fewer) into the `count` bytes before `end`, and answers the digits above them.
    @inline(__always)
    private static func writeLowDigits(
        _ value: UInt64, count: Int, into buffer: UnsafeMutableBufferPointer<UInt8>, before end: Int
    ) -> UInt64 {
        // Sound: `digitPairs` is a literal with a pointer representation (static storage that
        // lives as long as the process), 200 bytes long, and `pair` is at most 198.
        let pairs = digitPairs.utf8Start
        var digits = value
        var position = end
        var remaining = count
        while remaining >= 2 {
            let pair = Int(digits % 100) &* 2
            digits /= 100
            position -= 2
            buffer[position] = pairs[pair]
            buffer[position + 1] = pairs[pair + 1]
            remaining -= 2
        }
        if remaining == 1 {
            buffer[position - 1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: digits % 10)
            digits /= 10
        }
        return digits
    }
}
