import FoundationEssentials

/// RFC 4180 CSV: a header row, then one row per record; fields with commas, quotes or line
/// breaks are quoted.
public enum CSVWriter {
    public static func render(header: [String], rows: [[String]]) -> String {
        ([header] + rows).map { $0.map(escape).joined(separator: ",") }.joined(separator: "\n")
    }

    /// The field, quoted when it holds a comma, a quote or a line break. Scalars, not
    /// characters, are checked: `"\r\n"` is one `Character`, equal to neither `"\r"` nor `"\n"`.
    static func escape(_ field: String) -> String {
        guard field.unicodeScalars.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" })
        else {
            return field
        }
        return "\"" + field.replacing("\"", with: "\"\"") + "\""
    }
}
