import FoundationEssentials

extension DecimalText {
    /// The plain decimal text of `value`: no exponent, no grouping, `-` for negatives; exactly
    /// `value.description`, which stays the reference (`"80630000"`, `"-0.54"`, `"0.00000001"`,
    /// `"NaN"`).
    ///
    /// Foundation's `description` divides the whole 128-bit mantissa by ten once per digit and
    /// builds the text a character at a time, backwards; on a market-wide answer that was most
    /// of agg's time. This reads the mantissa and exponent once and writes the digits directly.
    public static func format(_ value: Decimal) -> String {
        guard let parts = DecimalParts(value) else { return value.description }
        return String(unsafeUninitializedCapacity: parts.textLength) { buffer in
            parts.write(into: buffer)
        }
    }

    /// Writes the text of `format(value)` as UTF-8 at the start of `buffer` and answers its
    /// length, or `nil` when it does not fit.
    public static func write(_ value: Decimal, into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int? {
        guard let parts = DecimalParts(value) else {
            var text = value.description
            return text.withUTF8 { utf8 in
                guard utf8.count <= buffer.count else { return nil }
                _ = buffer.initialize(fromContentsOf: utf8)
                return utf8.count
            }
        }
        guard parts.textLength <= buffer.count else { return nil }
        return parts.write(into: buffer)
    }

    /// Appends the text of `format(value)` as UTF-8 to `bytes`, without making a `String`.
    public static func append(_ value: Decimal, to bytes: inout [UInt8]) {
        guard let parts = DecimalParts(value) else {
            bytes.append(contentsOf: value.description.utf8)
            return
        }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: parts.textLength) { buffer in
            let count = parts.write(into: buffer)
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[..<count]))
        }
    }
}

/// A `Decimal` taken apart: sign, the integer mantissa exactly as stored, and the power of ten.
///
/// FoundationEssentials keeps a `Decimal` in 20 bytes: the exponent (`Int8`), a byte holding the
/// mantissa's length in 16-bit words (high 4 bits) and the sign (bit 3), two reserved bytes, and
/// eight little-endian 16-bit words of mantissa, least significant first. It does not make the
/// mantissa public, so it is read from those bytes. The layout is an implementation detail, so
/// it is checked once per process against `description` on values that exercise every field
/// (`layoutIsKnown`); on any other layout every value goes through `description` instead, so a
/// change in Foundation can make agg slower, never wrong.
struct DecimalParts {
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

    /// The number of decimal digits of `value` (1 to 20).
    private static func digits(_ value: UInt64) -> Int {
        var count = 1
        var power: UInt64 = 10
        while value >= power {
            count += 1
            // 10^19 is the largest power of ten a UInt64 holds: the next has 20 digits at most.
            if count == 20 { break }
            power &*= 10
        }
        return count
    }

    /// 10^19, the largest power of ten in a `UInt64`.
    private static let chunk: UInt128 = 10_000_000_000_000_000_000

    /// Reads the stored fields; `nil` for NaN and zero (length 0), for an impossible length, and
    /// for a zero mantissa, which `description` prints in its own way.
    private static func read(_ value: Decimal) -> DecimalParts? {
        guard MemoryLayout<Decimal>.size == 20 else { return nil }
        return withUnsafeBytes(of: value) { raw -> DecimalParts? in
            let exponent = Int8(bitPattern: raw[0])
            let flags = raw[1]
            let length = Int(flags >> 4)
            guard (1...8).contains(length) else { return nil }
            // Two unaligned 64-bit loads, then only the words in use.
            let low = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 4, as: UInt64.self))
            let high = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 12, as: UInt64.self))
            var mantissa = UInt128(high) << 64 | UInt128(low)
            if length < 8 { mantissa &= (UInt128(1) << (16 * length)) - 1 }
            guard mantissa != 0 else { return nil }
            return DecimalParts(negative: flags & 0x08 != 0, exponent: Int(exponent), mantissa: mantissa)
        }
    }

    /// Whether `read` understands this Foundation's `Decimal`: the parts of a few values whose
    /// parts are known, and the text of more, agree with Foundation. Computed once per process.
    static let layoutIsKnown: Bool = {
        let probes: [(Decimal, negative: Bool, exponent: Int, mantissa: UInt128)] = [
            (Decimal(sign: .minus, exponent: -3, significand: Decimal(12_345)), true, -3, 12_345),
            (Decimal(sign: .plus, exponent: 7, significand: Decimal(65_537)), false, 7, 65_537),
            (Decimal(UInt64.max), false, 0, UInt128(UInt64.max)),
        ]
        for (value, negative, exponent, mantissa) in probes {
            guard let parts = read(value), parts.negative == negative, parts.exponent == exponent,
                parts.mantissa == mantissa, parts.text == value.description
            else { return false }
        }
        let wide = Decimal(UInt64.max) * Decimal(UInt64.max)
        let texts: [Decimal] = [wide, -wide, Decimal(sign: .minus, exponent: -128, significand: wide)]
        return texts.allSatisfy { read($0)?.text == $0.description }
    }()

    /// The length of the text in bytes.
    var textLength: Int {
        let sign = negative ? 1 : 0
        if exponent >= 0 { return sign + digitCount + exponent }
        let fractionDigits = -exponent
        // "iii.fff", or "0.000ddd" when every digit is in the fraction.
        return sign + (digitCount > fractionDigits ? digitCount + 1 : fractionDigits + 2)
    }

    /// The text as a `String`, for the layout check.
    var text: String {
        String(unsafeUninitializedCapacity: textLength) { write(into: $0) }
    }

    /// Writes the text into the start of `buffer`, which holds at least `textLength` bytes, and
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
        let pairs = Self.digitPairs.utf8Start
        var position = start + digitCount
        var rest = mantissa
        var remaining = digitCount
        while remaining > 0 {
            // Nineteen digits at a time; a mantissa that fits 64 bits needs no 128-bit division.
            var digits: UInt64
            var chunkDigits: Int
            if rest <= UInt128(UInt64.max) {
                digits = UInt64(rest)
                chunkDigits = remaining
            } else {
                digits = UInt64(rest % Self.chunk)
                rest /= Self.chunk
                chunkDigits = 19
            }
            remaining -= chunkDigits
            while chunkDigits >= 2 {
                let pair = Int(digits % 100) * 2
                digits /= 100
                position -= 2
                buffer[position] = pairs[pair]
                buffer[position + 1] = pairs[pair + 1]
                chunkDigits -= 2
            }
            if chunkDigits == 1 {
                position -= 1
                buffer[position] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: digits)
            }
        }
    }
}
