/// PostgreSQL's text form of a one-dimensional array, for sending many values in one parameter
/// (`unnest($1::text[])`): `{"BTC","ETH",NULL}`.
///
/// Every element is double-quoted, with `\` and `"` escaped by a backslash, so no element text
/// can end the element or the array early; the whole literal is still sent as a parameter,
/// never spliced into SQL.
enum PostgresArray {
    static func literal(_ elements: [String?]) -> String {
        var text = "{"
        for (index, element) in elements.enumerated() {
            if index > 0 { text += "," }
            guard let element else {
                text += "NULL"
                continue
            }
            text += "\""
            for character in element.unicodeScalars {
                if character == "\\" || character == "\"" { text += "\\" }
                text.unicodeScalars.append(character)
            }
            text += "\""
        }
        return text + "}"
    }
}
