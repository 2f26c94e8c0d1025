import FoundationEssentials

/// The fast path of `JSONWriter`: bytes written in place into the room after the text, through
/// a pointer, instead of appended to an array piece by piece. Going through `Array.append` one
/// piece at a time, or through a temporary buffer, cost a market-wide answer more than the
/// digits themselves; a member key literal goes out with its quotes and colon in one block, and
/// a decimal with its quotes in another.
///
/// The plain version is `PlainJSONWriter` (beside this file): the same calls, written on a
/// `String` the obvious way. Its oracle test (`JSONWriterFastPathOracleTests`) runs the same
/// calls through both, over every recorded fixture document and random scripts of calls, and
/// requires the same bytes.
///
/// Why every write below is sound: `reserve(count)` makes `storage` hold more than
/// `length + count` bytes, so the `count` bytes after `length` that `body` may write are inside
/// the array; the pointer is used only inside `withUnsafeMutableBufferPointer`, while the array
/// is not otherwise touched (the writer is a value, mutated through `inout self`), so it never
/// outlives or aliases the storage.
extension JSONWriter {
    /// Lets `body` write up to `count` bytes into the room after the text (growing the storage
    /// first when needed); it answers how many it wrote.
    @inline(__always)
    mutating func write(reserving count: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
        reserve(count)
        let start = length
        length += storage.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return 0 }
            return body(base + start)
        }
    }

    /// Makes room for `count` more bytes after the text (the room holds at least one byte more
    /// than asked for, so that a fixed-size piece may be written whole and counted short).
    @inline(__always)
    mutating func reserve(_ count: Int) {
        if length + count >= storage.count { grow(to: length + count + 1) }
    }

    /// At least doubles the storage, to hold `needed` bytes or more.
    private mutating func grow(to needed: Int) {
        let target = Swift.max(needed, 2 * storage.count, 256)
        storage.append(contentsOf: repeatElement(0, count: target - storage.count))
    }

    mutating func append(_ byte: UInt8) {
        write(reserving: 1) { room in
            room[0] = byte
            return 1
        }
    }

    /// Copies `block` after the text. Sound: `block` is read only for its own `count` bytes, and
    /// it cannot be `storage` itself (callers pass literals, strings' own UTF-8 and scratch
    /// arrays, never the writer's storage).
    mutating func append(_ block: UnsafeBufferPointer<UInt8>) {
        guard let source = block.baseAddress, !block.isEmpty else { return }
        write(reserving: block.count) { room in
            room.update(from: source, count: block.count)
            return block.count
        }
    }

    /// Sound: a `StaticString` with a pointer representation points at static storage that lives
    /// as long as the process; the only literals passed here are multi-character ones, which
    /// always have it.
    mutating func append(_ ascii: StaticString) {
        append(UnsafeBufferPointer(start: ascii.utf8Start, count: ascii.utf8CodeUnitCount))
    }

    /// `"key":` (and a space when pretty) in one block, when `key` is held as bytes and needs no
    /// escape; `false` (nothing written) otherwise, and the caller writes it as any string.
    @inline(__always)
    mutating func appendKeyLiteralInPlace(_ key: StaticString) -> Bool {
        // Sound: `utf8Start` is read only when the literal has a pointer representation (static
        // storage for the life of the process), for its `utf8CodeUnitCount` bytes.
        guard key.hasPointerRepresentation,
            !UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount).contains(where: needsEscape)
        else { return false }
        let source = key.utf8Start
        let count = key.utf8CodeUnitCount
        let written = count + (pretty ? 4 : 3)
        // The space is written in every case and counted only when pretty: `reserve` leaves one
        // byte more than asked for, so index `count + 3` is inside the room either way.
        write(reserving: written) { room in
            room[0] = UInt8(ascii: "\"")
            (room + 1).update(from: source, count: count)
            room[count + 1] = UInt8(ascii: "\"")
            room[count + 2] = UInt8(ascii: ":")
            room[count + 3] = UInt8(ascii: " ")
            return written
        }
        return true
    }

    /// The digits of `value` written in place: twenty digits and a sign hold any `Int64`, and
    /// exactly that many bytes are reserved.
    @inline(__always)
    mutating func appendIntegerInPlace(_ value: Int64) {
        write(reserving: 21) { room in
            var count = 0
            if value < 0 {
                room[0] = UInt8(ascii: "-")
                count = 1
            }
            let start = count
            var rest = value.magnitude
            repeat {
                room[count] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
                rest /= 10
                count += 1
            } while rest > 0
            var digits = UnsafeMutableBufferPointer(start: room + start, count: count - start)
            digits.reverse()
            return count
        }
    }

    /// A decimal's text between quotes, written in place (nine of these per quote): exactly
    /// `textLength + 2` bytes are reserved, and `DecimalTextFastPath.write` writes `textLength`.
    @inline(__always)
    mutating func appendDecimalStringInPlace(_ parts: DecimalTextFastPath) {
        let count = parts.textLength
        write(reserving: count + 2) { room in
            room[0] = UInt8(ascii: "\"")
            parts.write(into: UnsafeMutableBufferPointer(start: room + 1, count: count))
            room[count + 1] = UInt8(ascii: "\"")
            return count + 2
        }
    }

    /// `"text"` in one block, for UTF-8 that needs no escape: `utf8.count + 2` bytes reserved
    /// and written.
    @inline(__always)
    mutating func appendUnescapedInPlace(_ utf8: UnsafeBufferPointer<UInt8>) {
        let count = utf8.count
        write(reserving: count + 2) { room in
            room[0] = UInt8(ascii: "\"")
            if let source = utf8.baseAddress { (room + 1).update(from: source, count: count) }
            room[count + 1] = UInt8(ascii: "\"")
            return count + 2
        }
    }
}
