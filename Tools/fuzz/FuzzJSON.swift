// libFuzzer entry point for agg's JSON parser, path cursor and exact decimals.
// Build and run with Tools/fuzz/run.sh; it compiles Sources/AggJSON together with this file.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let value = try? JSONParser.parse(bytes) {
        // Whatever parses must write out and parse back to the same value.
        let again = try? JSONParser.parse(value.serialized())
        precondition(again == value, "round trip changed the document")
        walk(JSONCursor(value), depth: 0)
    }
    if let text = String(validating: bytes, as: UTF8.self), let decimal = try? DecimalText.parse(text) {
        precondition((try? DecimalText.parse(decimal.description)) == decimal, "decimal did not round-trip")
    }
    return 0
}

/// Reads every value as every type, as decoders do.
private func walk(_ cursor: JSONCursor, depth: Int) {
    guard depth < 64 else { return }
    _ = try? cursor.decimal()
    _ = try? cursor.int64()
    _ = try? cursor.string()
    _ = cursor.path
    for element in (try? cursor.elements()) ?? [] { walk(element, depth: depth + 1) }
    for member in (try? cursor.members()) ?? [] { walk(member.value, depth: depth + 1) }
}
