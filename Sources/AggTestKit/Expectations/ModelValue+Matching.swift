import AggJSON
import FoundationEssentials

/// Comparing an answer with what `expectations.json` says of it.
///
/// A record matches an object naming exactly its fields; text matches the same string (so a
/// decimal matches only its exact text, `"58419.9"`); a list matches an array item by item, or an
/// object of checks: `count`, `first`, `last`, `markets` (every item's market, in order),
/// `includes` (each entry matches some item in the fields it names), `every` (every item matches
/// the fields it names), `without` (no item matches any entry),
/// `quoteCurrencies` (the markets' quote currencies, in order of first appearance), `distinct` (a
/// field no two items share), `positive` (a decimal field above zero in every item) and `ascending` or `descending` (a time or market field in that order, ties
/// allowed);
/// a table matches the entries an object names, and `$count`.
extension ModelValue {
    /// Where this value differs from `expected`, one line a difference, each starting with `path`.
    public func mismatches(_ expected: JSONValue, at path: String = "$") -> [String] {
        switch (self, expected) {
        case (.text(let actual), .string(let wanted)):
            return actual == wanted ? [] : ["\(path): expected \(expected.compactText), got \(self.compactText)"]
        case (.number(let actual), .number(let wanted)):
            return String(actual) == wanted ? [] : ["\(path): expected \(wanted), got \(actual)"]
        case (.record(let fields), .object(let object)):
            return recordMismatches(fields, object, at: path, partial: false)
        case (.table(let entries), .object(let object)):
            return tableMismatches(entries, object, at: path)
        case (.list(let items), .array(let wanted)):
            var found = items.count == wanted.count ? [] : ["\(path): \(items.count) items, expected \(wanted.count)"]
            for (index, pair) in zip(items, wanted).enumerated() {
                found += pair.0.mismatches(pair.1, at: "\(path)[\(index)]")
            }
            return found
        case (.list(let items), .object(let checks)):
            return listMismatches(items, checks, at: path)
        default:
            return ["\(path): expected \(expected.compactText), got \(self.compactText)"]
        }
    }

    /// Whether this value has every field `expected` names, with those values.
    func matches(partially expected: JSONValue) -> Bool {
        if case .record(let fields) = self, case .object(let object) = expected {
            return recordMismatches(fields, object, at: "$", partial: true).isEmpty
        }
        return mismatches(expected).isEmpty
    }

    private func recordMismatches(
        _ fields: [(String, ModelValue)], _ object: JSONObject, at path: String, partial: Bool
    ) -> [String] {
        var found: [String] = []
        for member in object.members {
            if let field = fields.first(where: { $0.0 == member.key }) {
                found += field.1.mismatches(member.value, at: "\(path).\(member.key)")
            } else {
                found.append("\(path).\(member.key): expected \(member.value.compactText), got nothing")
            }
        }
        if !partial {
            for (name, value) in fields where object[name] == nil {
                found.append("\(path).\(name): not expected, got \(value.compactText)")
            }
        }
        return found
    }

    private func tableMismatches(_ entries: [(String, ModelValue)], _ object: JSONObject, at path: String) -> [String] {
        var found: [String] = []
        for member in object.members {
            if member.key == "$count" {
                found += ModelValue.number(entries.count).mismatches(member.value, at: "\(path).$count")
            } else if let entry = entries.first(where: { $0.0 == member.key }) {
                found += entry.1.mismatches(member.value, at: "\(path).\(member.key)")
            } else {
                found.append("\(path).\(member.key): expected \(member.value.compactText), got nothing")
            }
        }
        return found
    }

    private func listMismatches(_ items: [ModelValue], _ checks: JSONObject, at path: String) -> [String] {
        var found: [String] = []
        for check in checks.members {
            let here = "\(path).\(check.key)"
            switch (check.key, check.value) {
            case ("count", _):
                found += ModelValue.number(items.count).mismatches(check.value, at: here)
            case ("first", _), ("last", _):
                guard let item = check.key == "first" ? items.first : items.last else {
                    found.append("\(here): the list is empty")
                    continue
                }
                found += item.mismatches(check.value, at: here)
            case ("markets", _):
                let markets = ModelValue.list(items.map { $0.field("market") ?? .text("none") })
                found += markets.mismatches(check.value, at: here)
            case ("includes", .array(let entries)):
                for entry in entries where !items.contains(where: { $0.matches(partially: entry) }) {
                    found.append("\(here): no item matches \(entry.compactText)")
                }
            case ("every", _):
                if let index = items.firstIndex(where: { !$0.matches(partially: check.value) }) {
                    found.append("\(here): item \(index) does not match \(check.value.compactText)")
                }
            case ("without", .array(let entries)):
                for entry in entries where items.contains(where: { $0.matches(partially: entry) }) {
                    found.append("\(here): an item matches \(entry.compactText)")
                }
            case ("quoteCurrencies", _):
                var seen: [String] = []
                for item in items {
                    guard case .text(let market)? = item.field("market"), let slash = market.firstIndex(of: "/") else {
                        continue
                    }
                    let quote = String(market[market.index(after: slash)...])
                    if !seen.contains(quote) { seen.append(quote) }
                }
                found += ModelValue.list(seen.map { .text($0) }).mismatches(check.value, at: here)
            case ("distinct", .string(let name)):
                let values = items.map { $0.field(name)?.compactText ?? "" }
                if Set(values).count != values.count { found.append("\(here): two items share a \(name)") }
            case ("positive", .string(let name)):
                if let index = items.firstIndex(where: { !$0.isPositive(name) }) {
                    found.append("\(here): item \(index) has no positive \(name)")
                }
            case ("ascending", .string(let name)), ("descending", .string(let name)):
                let values = items.map { $0.field(name)?.compactText ?? "" }
                let ordered = zip(values, values.dropFirst()).allSatisfy {
                    check.key == "ascending" ? $0 <= $1 : $0 >= $1
                }
                if !ordered { found.append("\(here): the items are not in \(check.key) order of \(name)") }
            default:
                found.append("\(here): not a check of a list (\(Self.listChecks.joined(separator: ", ")))")
            }
        }
        return found
    }

    /// The checks an object can make of a list.
    static let listChecks = [
        "count", "first", "last", "markets", "includes", "every", "without", "quoteCurrencies", "distinct", "positive",
        "ascending", "descending",
    ]

    /// Whether the field `name` of a record is a decimal above zero.
    func isPositive(_ name: String) -> Bool {
        guard case .text(let text)? = field(name), let value = Decimal(string: text) else { return false }
        return value > 0
    }

    /// The value of the field `name` of a record.
    func field(_ name: String) -> ModelValue? {
        guard case .record(let fields) = self else { return nil }
        return fields.first { $0.0 == name }?.1
    }

    /// The value as one line of JSON, for messages.
    public var compactText: String {
        switch self {
        case .text(let text): JSONValue.string(text).compactText
        case .number(let number): String(number)
        case .list(let items): "[" + items.map(\.compactText).joined(separator: ",") + "]"
        case .record(let fields), .table(let fields):
            "{" + fields.map { JSONValue.string($0.0).compactText + ":" + $0.1.compactText }.joined(separator: ",")
                + "}"
        }
    }
}

extension JSONValue {
    /// The value as one line of JSON, for messages.
    var compactText: String {
        var writer = JSONWriter()
        writer.value(self)
        return writer.text
    }
}
