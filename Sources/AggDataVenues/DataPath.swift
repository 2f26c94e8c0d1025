import AggJSON

/// A JSON path in a venue definition: `$`, then member names and array indices,
/// `$.data[0].last`. It is read from the root of a venue's answer, or of one item of a list.
public struct DataPath: Sendable, Equatable, CustomStringConvertible {
    /// One step below the root.
    enum Step: Sendable, Equatable {
        case key(String)
        case index(Int)
    }

    let steps: [Step]

    /// The path as written in the definition.
    public let description: String

    /// The root itself, `$`.
    public static let root = DataPath(steps: [], description: "$")

    private init(steps: [Step], description: String) {
        self.steps = steps
        self.description = description
    }

    /// Parses `$.name[0].other`: names are one or more characters other than `.`, `[` and `]`;
    /// indices are whole numbers. Returns `nil` for anything else.
    public init?(_ text: String) {
        var characters = Substring(text)
        guard characters.first == "$" else { return nil }
        characters = characters.dropFirst()
        var steps: [Step] = []
        while let first = characters.first {
            if first == "." {
                characters = characters.dropFirst()
                let name = characters.prefix { $0 != "." && $0 != "[" && $0 != "]" }
                guard !name.isEmpty else { return nil }
                steps.append(.key(String(name)))
                characters = characters.dropFirst(name.count)
            } else if first == "[" {
                characters = characters.dropFirst()
                let digits = characters.prefix { $0.isASCII && $0.isNumber }
                guard !digits.isEmpty, digits.count <= 6, let index = Int(digits),
                    characters.dropFirst(digits.count).first == "]"
                else { return nil }
                steps.append(.index(index))
                characters = characters.dropFirst(digits.count + 1)
            } else {
                return nil
            }
        }
        self.init(steps: steps, description: text)
    }

    /// The value at this path below `cursor`; absent when a step is missing (reading it fails
    /// with the answer's own path).
    public func read(_ cursor: JSONCursor) -> JSONCursor {
        var current = cursor
        for step in steps {
            switch step {
            case .key(let key): current = current[key]
            case .index(let index): current = current[index]
            }
        }
        return current
    }
}
