import AggJSON
import Foundation

extension Fixtures {
    /// The text of every JSON number and string in every `.json` file under `Fixtures/`, in a
    /// fixed order (files sorted by path), for oracle tests that must agree on every value a
    /// venue has sent; the caller keeps those that parse as it needs.
    public static func numberAndStringTexts() throws -> [String] {
        let root = directory
        guard let enumerator = FileManager.default.enumerator(atPath: root.path) else {
            throw FixtureError(path: root.path)
        }
        let files = enumerator.compactMap { $0 as? String }.filter { $0.hasSuffix(".json") }.sorted()
        var texts: [String] = []
        func collect(_ value: JSONValue) {
            switch value {
            case .number(let text), .string(let text): texts.append(text)
            case .array(let elements): elements.forEach(collect)
            case .object(let object): for member in object { collect(member.value) }
            case .null, .bool: break
            }
        }
        for file in files {
            guard let data = FileManager.default.contents(atPath: root.appendingPathComponent(file).path),
                let document = try? JSONParser.parse(Array(data))
            else { continue }
            collect(document)
        }
        return texts
    }
}
