import AggJSON
import FoundationEssentials

/// The fast path of the book walks' exact arithmetic (`BookSide`, `ArbitrageInputs`): a sum,
/// difference or product of two decimals computed on their stored parts
/// (`DecimalText.parts(of:)`) in 128-bit integers when the result is exact in at most 38
/// digits, and written as Foundation writes an exact result: trailing zeros stripped
/// (`_isCompact`), the mantissa in as many 16-bit words as it needs. Foundation's operators
/// allocate digit arrays for every operation and strip trailing zeros by repeated division.
/// Anything else goes to Foundation, the plain version: a zero or NaN operand (Foundation hands
/// the other operand back as it was), a zero result, an operand or result that would need more
/// than 38 digits (where Foundation rounds), an exponent far from zero, an unknown layout. Its
/// oracle test (`DecimalArithmeticFastPathOracleTests`) requires the same 20 bytes as
/// Foundation's `+`, `-` and `*` on every neighbouring pair of decimals in the fixtures and on
/// random ones.
enum DecimalArithmetic {
    /// `a + b`.
    static func sum(_ a: Decimal, _ b: Decimal) -> Decimal {
        sumFastPath(a, b, negatingB: false) ?? a + b
    }

    /// `a - b`.
    static func difference(_ a: Decimal, _ b: Decimal) -> Decimal {
        sumFastPath(a, b, negatingB: true) ?? a - b
    }

    /// `a * b`.
    static func product(_ a: Decimal, _ b: Decimal) -> Decimal {
        productFastPath(a, b) ?? a * b
    }

    /// The largest mantissa handled: 38 digits, well inside the 128 bits Foundation keeps, so
    /// that Foundation computes the same result without rounding.
    static let largest: UInt128 = 99_999_999_999_999_999_999_999_999_999_999_999_999

    /// `a + b` (`a - b` when `negatingB`) on the parts; `nil` for Foundation.
    static func sumFastPath(_ a: Decimal, _ b: Decimal, negatingB: Bool) -> Decimal? {
        guard let x = DecimalText.parts(of: a), let y = DecimalText.parts(of: b) else { return nil }
        let yNegative = negatingB ? !y.negative : y.negative
        let exponent = min(x.exponent, y.exponent)
        guard let xm = scaled(x.mantissa, digits: x.digits, by: x.exponent - exponent),
            let ym = scaled(y.mantissa, digits: y.digits, by: y.exponent - exponent)
        else { return nil }
        let negative: Bool
        let mantissa: UInt128
        if x.negative == yNegative {
            // Both at most 10^38 - 1: the sum fits in 128 bits.
            mantissa = xm + ym
            negative = x.negative
        } else if xm > ym {
            mantissa = xm - ym
            negative = x.negative
        } else if ym > xm {
            mantissa = ym - xm
            negative = yNegative
        } else {
            return nil
        }
        return compact(negative: negative, exponent: exponent, mantissa: mantissa)
    }

    /// `a * b` on the parts; `nil` for Foundation.
    static func productFastPath(_ a: Decimal, _ b: Decimal) -> Decimal? {
        guard let x = DecimalText.parts(of: a), let y = DecimalText.parts(of: b) else { return nil }
        // Digit counts that add to more than 39 cannot give a product of 38 digits or fewer.
        guard x.digits + y.digits <= 39 else { return nil }
        let (mantissa, overflow) = x.mantissa.multipliedReportingOverflow(by: y.mantissa)
        guard !overflow else { return nil }
        return compact(negative: x.negative != y.negative, exponent: x.exponent + y.exponent, mantissa: mantissa)
    }

    /// `mantissa` (of `digits` digits) × 10^`power`, `nil` above 38 digits (above `largest`).
    static func scaled(_ mantissa: UInt128, digits: Int, by power: Int) -> UInt128? {
        // A mantissa of d digits times 10^p has d + p digits; Foundation's may have 39.
        guard power >= 0, digits + power <= 38 else { return nil }
        return power == 0 ? mantissa : mantissa * powersOfTen[power]
    }

    /// 10^0 to 10^38.
    static let powersOfTen: [UInt128] = (0...38).map { power in
        (0..<power).reduce(UInt128(1)) { value, _ in value * 10 }
    }

    /// The decimal `±mantissa × 10^exponent` as Foundation writes an exact result: trailing
    /// zeros stripped; `nil` for a zero mantissa, one above `largest`, or an exponent far from
    /// zero (Foundation's own limits then apply).
    private static func compact(negative: Bool, exponent: Int, mantissa: UInt128) -> Decimal? {
        guard mantissa != 0, mantissa <= largest else { return nil }
        var mantissa = mantissa
        var exponent = exponent
        if mantissa <= UInt128(UInt64.max) {
            // The usual case, in 64-bit arithmetic: 128-bit division is slow.
            var small = UInt64(mantissa)
            while small % 10 == 0 {
                small /= 10
                exponent += 1
            }
            mantissa = UInt128(small)
        } else {
            while mantissa % 10 == 0 {
                mantissa /= 10
                exponent += 1
            }
        }
        guard (-100...100).contains(exponent), let flags = compactFlags else { return nil }
        return written(negative: negative, exponent: exponent, mantissa: mantissa, flags: flags)
    }

    /// The flag bits (below the length) and the reserved bytes of a result Foundation has
    /// compacted, read from `1 + 1`, and only when writing known parts gives Foundation's own
    /// bytes for a few results of either sign, a wide mantissa and a negative exponent; `nil`
    /// otherwise, which sends every operation to Foundation. FoundationEssentials does not make
    /// its initializer from parts public, so the result is written into a copy's bytes.
    static let compactFlags: (bits: UInt8, reserved: (UInt8, UInt8))? = {
        guard MemoryLayout<Decimal>.size == 20 else { return nil }
        let two = Decimal(1) + Decimal(1)
        let flags = withUnsafeBytes(of: two) { raw in (bits: raw[1] & 0x07, reserved: (raw[2], raw[3])) }
        let wide = Decimal(UInt64.max) * Decimal(1_000_003)
        let probes: [(Decimal, Bool, Int, UInt128)] = [
            (two, false, 0, 2),
            (Self.decimal(25, -2) - Self.decimal(75, -2), true, -1, 5),
            (Self.decimal(15, -1) * Self.decimal(3, -3), false, -4, 45),
            (wide, false, 0, UInt128(UInt64.max) * 1_000_003),
            (Self.decimal(-123_456, -3) + Self.decimal(1, -4), true, -4, 1_234_559),
        ]
        let known = probes.allSatisfy { value, negative, exponent, mantissa in
            let bytes = { (value: Decimal) in withUnsafeBytes(of: value) { Array($0) } }
            return bytes(written(negative: negative, exponent: exponent, mantissa: mantissa, flags: flags))
                == bytes(value)
        }
        return known ? flags : nil
    }()

    /// `significand × 10^exponent`, built by Foundation.
    private static func decimal(_ significand: Int, _ exponent: Int) -> Decimal {
        Decimal(
            sign: significand < 0 ? .minus : .plus, exponent: exponent, significand: Decimal(significand.magnitude))
    }

    /// `±mantissa × 10^exponent` written into a `Decimal`'s 20 bytes, the layout that
    /// `DecimalText.parts(of:)` reads: the exponent, then the length in 16-bit words above the
    /// sign bit and `flags`' bits, then the reserved bytes, then the mantissa's words, least
    /// significant first.
    private static func written(
        negative: Bool, exponent: Int, mantissa: UInt128, flags: (bits: UInt8, reserved: (UInt8, UInt8))
    ) -> Decimal {
        var value = Decimal()
        let bits = 128 - mantissa.leadingZeroBitCount
        let length = UInt8((bits + 15) / 16)
        // Sound: the bytes are those of the local `value`, 20 of them (checked by
        // `compactFlags`, which every caller requires), written only at offsets 0 to 19; the
        // stores are unaligned stores of plain integers, valid at any offset.
        withUnsafeMutableBytes(of: &value) { raw in
            raw[0] = UInt8(bitPattern: Int8(exponent))
            raw[1] = length << 4 | (negative ? 0x08 : 0) | flags.bits
            raw[2] = flags.reserved.0
            raw[3] = flags.reserved.1
            raw.storeBytes(of: UInt64(truncatingIfNeeded: mantissa).littleEndian, toByteOffset: 4, as: UInt64.self)
            raw.storeBytes(
                of: UInt64(truncatingIfNeeded: mantissa >> 64).littleEndian, toByteOffset: 12, as: UInt64.self)
        }
        return value
    }
}
