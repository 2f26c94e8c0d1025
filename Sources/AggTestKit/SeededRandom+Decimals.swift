import FoundationEssentials

/// Random decimals for the fast-path oracles, from one seeded source: the same values on every
/// run, so that a failure names a value that can be asked again.
extension SeededRandom {
    /// A decimal with a mantissa of any width from 0 to 38 digits, any exponent `Decimal` holds
    /// (-128 to 127) and either sign: the whole of what the layout read by `DecimalTextFastPath`
    /// can hold.
    public mutating func decimal() -> Decimal {
        let high = next()
        let low = next()
        let digits = Int(next() % 39)
        let scale = UInt128(1) << (digits * 128 / 39)
        let mantissa = (UInt128(high) << 64 | UInt128(low)) % max(scale, 2)
        let split: UInt128 = 10_000_000_000_000_000_000
        let significand =
            Decimal(UInt64(mantissa / split)) * Decimal(sign: .plus, exponent: 19, significand: 1)
            + Decimal(UInt64(mantissa % split))
        let exponent = Int(next() % 256) - 128
        let sign: FloatingPointSign = next() % 2 == 0 ? .plus : .minus
        return Decimal(sign: sign, exponent: exponent, significand: significand)
    }

    /// The text of a plain decimal as venues send it: an integer part of 1 to 10 digits (no
    /// leading zeros) and a fraction of 0 to 12, either sign; one in four ends in a run of
    /// nines, where carries go wrong.
    public mutating func decimalText() -> String {
        var text = next() % 2 == 0 ? "" : "-"
        var integer = ""
        for _ in 0...(next() % 10) { integer += String(next() % 10) }
        while integer.count > 1, integer.first == "0" { integer.removeFirst() }
        text += integer
        let fraction = Int(next() % 13)
        if fraction > 0 { text += "." }
        for _ in 0..<fraction { text += String(next() % 10) }
        if next() % 4 == 0 { text += (fraction > 0 ? "" : ".") + "9999" }
        return text
    }
}
