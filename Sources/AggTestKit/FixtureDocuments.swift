import AggJSON
import Foundation

/// Every JSON document recorded in `Fixtures/`: what the fast-path oracles walk, so that each
/// compares its fast and plain versions on every value a venue has really sent.
public enum FixtureDocuments {
    /// Every `.json` file under `Fixtures/` that parses, by its path there, in a stable order.
    public static func all() throws -> [(file: String, document: JSONValue)] {
        let root = Fixtures.directory
        guard let enumerator = FileManager.default.enumerator(atPath: root.path) else {
            throw Fixtures.FixtureError(path: root.path)
        }
        return enumerator.compactMap { $0 as? String }.filter { $0.hasSuffix(".json") }.sorted().compactMap { file in
            guard let data = FileManager.default.contents(atPath: root.appendingPathComponent(file).path),
                let document = try? JSONParser.parse(Array(data))
            else { return nil }
            return (file, document)
        }
    }

    /// The text of every number and every string in `document`, in document order: the
    /// candidates for decimals.
    public static func scalarTexts(_ document: JSONValue) -> [String] {
        var texts: [String] = []
        func collect(_ value: JSONValue) {
            switch value {
            case .number(let text), .string(let text): texts.append(text)
            case .array(let elements): elements.forEach(collect)
            case .object(let object): for member in object.members { collect(member.value) }
            case .null, .bool: break
            }
        }
        collect(document)
        return texts
    }

    /// Every scalar of `document` that reads as a decimal (JSON number grammar), in document order.
    public static func decimals(in document: JSONValue) -> [Decimal] {
        scalarTexts(document).compactMap { try? DecimalText.parse($0, form: .jsonNumber) }
    }

    /// Every decimal of every fixture document, file by file in `all()`'s order: the values the
    /// decimal fast paths' oracles compare on (about 18,000).
    public static func allDecimals() throws -> [Decimal] {
        try all().flatMap { decimals(in: $0.document) }
    }
}
