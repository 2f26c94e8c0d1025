extension JSONCursor {
    /// A whole document read strictly, for the files agg ships and reads from its users (venue
    /// files, withdrawal-fee tables): `bytes` parsed (a syntax error fails at `$`, "not JSON: …"),
    /// no object holding a key twice (the failure names the key and its object's path), then
    /// `decode` on the root. Every failure is a `JSONDecodingError` with its path.
    public static func decodeStrictly<Value>(
        _ bytes: [UInt8], _ decode: (JSONCursor) throws(JSONDecodingError) -> Value
    ) throws(JSONDecodingError) -> Value {
        let root: JSONCursor
        do throws(JSONSyntaxError) {
            root = JSONCursor(try JSONParser.parse(bytes))
        } catch {
            throw JSONDecodingError(path: "$", reason: "not JSON: \(error.description)")
        }
        if let duplicate = root.value?.firstDuplicateKey() {
            throw JSONDecodingError(
                path: duplicate.path, reason: "the key '\(duplicate.key.prefix(40))' is given twice in one object")
        }
        return try decode(root)
    }
}
