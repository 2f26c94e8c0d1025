import AggJSON

extension StreamMessage {
    /// The message as JSON (text or binary frames alike), at the root `$`, read lazily
    /// (`JSONCursor(parsing:)`: a codec reads a few fields of each message).
    ///
    /// - Throws: `JSONDecodingError` at `$` when the bytes are not one JSON document.
    public func json() throws(JSONDecodingError) -> JSONCursor {
        do {
            return try JSONCursor(parsing: bytes)
        } catch {
            throw JSONDecodingError(path: "$", reason: "not JSON: \(error.description)")
        }
    }

    /// The message as a JSON object, the shape of nearly every venue's frames.
    ///
    /// - Throws: `JSONDecodingError` at `$` when it is not JSON or not an object.
    public func jsonObject() throws(JSONDecodingError) -> JSONCursor {
        let root = try json()
        guard root.isObject else { throw root.failure("expected an object, found \(root.kindDescription)") }
        return root
    }
}
