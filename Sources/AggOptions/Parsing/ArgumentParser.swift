import AggCore
import FoundationEssentials

/// The arguments of one command after parsing: typed option values, then positionals.
package struct ParsedArguments: Sendable {
    package var positionals: [String] = []
    /// Each option's value by long name, already parsed (flags hold `true`).
    private var values: [String: any Sendable] = [:]

    package init(positionals: [String] = []) {
        self.positionals = positionals
    }

    /// The value of `option`, when it was given.
    package subscript<Value>(option: Option<Value>) -> Value? {
        values[option.spec.name] as? Value
    }

    /// Whether `flag` was given.
    package subscript(flag: Flag) -> Bool {
        values[flag.spec.name] != nil
    }

    /// Whether the option `spec` describes was given, whatever its type.
    package func contains(_ spec: OptionSpec) -> Bool {
        values[spec.name] != nil
    }

    /// Whether the user asked for help: `--help`, `-h`, or `help` as the first argument after
    /// the command (`agg quote help`), which never reaches the command.
    package var wantsHelp: Bool { self[CommonOptions.help] }

    package mutating func record(_ spec: OptionSpec, text: String) throws(AggError) {
        values[spec.name] = try spec.parse(text, values[spec.name])
    }

    mutating func recordHelp() {
        values[CommonOptions.help.spec.name] = true
    }
}

/// Parses a command's arguments against its spec. Errors are usage errors (exit 64) with a
/// suggestion for a mistyped option; every value is parsed here, before the command runs.
package enum ArgumentParser {
    package static func parse(_ arguments: [String], spec: CommandSpec) throws(AggError)
        -> ParsedArguments
    {
        var parsed = ParsedArguments()
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositionals || argument == "-" || !argument.hasPrefix("-")
                || isNegativeNumber(argument)
            {
                parsed.positionals.append(argument)
                continue
            }
            if argument == "--" {
                onlyPositionals = true
                continue
            }
            let option: OptionSpec
            var inlineValue: String?
            if argument.hasPrefix("--") {
                let body = argument.dropFirst(2)
                let name = body.split(separator: "=", maxSplits: 1).first.map(String.init) ?? ""
                if let equals = body.firstIndex(of: "=") {
                    inlineValue = String(body[body.index(after: equals)...])
                }
                guard let found = spec.option(named: name) else {
                    throw .usage(unknownOption("--" + name, spec: spec))
                }
                option = found
            } else {
                // `-e bithumb`, or attached: `-ebithumb`, `-fjson`.
                let letters = Array(argument.dropFirst())
                guard let letter = letters.first, let found = spec.option(short: letter),
                    letters.count == 1 || !found.isFlag
                else {
                    throw .usage(unknownOption(argument, spec: spec))
                }
                if letters.count > 1 { inlineValue = String(letters.dropFirst()) }
                option = found
            }
            if option.isFlag {
                guard inlineValue == nil else { throw .usage("option --\(option.name) takes no value") }
                try parsed.record(option, text: "")
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else {
                guard index < arguments.count else {
                    throw .usage("option --\(option.name) needs a value (\(option.valueName ?? "VALUE"))")
                }
                value = arguments[index]
                index += 1
            }
            try parsed.record(option, text: value)
        }
        if parsed.positionals.first == "help" { parsed.recordHelp() }
        if parsed.wantsHelp { return parsed }
        if parsed.positionals.count < spec.positionals.minimum {
            throw .usage("'\(spec.invocation)' needs more arguments; usage: \(spec.programUsage)")
        }
        if let maximum = spec.positionals.maximum, parsed.positionals.count > maximum {
            let extra = parsed.positionals[maximum]
            throw .usage("unexpected argument '\(extra)'; usage: \(spec.programUsage)")
        }
        return parsed
    }

    private static func isNegativeNumber(_ text: String) -> Bool {
        text.count > 1 && text.hasPrefix("-")
            && text.dropFirst().allSatisfy { $0.isNumber || $0 == "." }
    }

    private static func unknownOption(_ text: String, spec: CommandSpec) -> String {
        let names = spec.options.map { "--" + $0.name }
        let base = "unknown option '\(text)' for '\(spec.invocation)'"
        if let suggestion = Suggestion.closest(
            to: text.hasPrefix("--") ? text : "-" + text, among: names)
        {
            return base + "; did you mean '\(suggestion)'?"
        }
        return base + "; see '\(spec.invocation) --help'"
    }
}

/// "Did you mean" suggestions by edit distance.
package enum Suggestion {
    /// The candidate closest to `text`, if it is close enough to be a likely typo.
    package static func closest(to text: String, among candidates: [String]) -> String? {
        let scored = candidates.map { ($0, distance(text.lowercased(), $0.lowercased())) }
        guard let best = scored.min(by: { $0.1 < $1.1 }) else { return nil }
        let limit = max(2, best.0.count / 3)
        return best.1 <= limit ? best.0 : nil
    }

    /// Damerau-Levenshtein distance (adjacent transpositions count as one edit).
    static func distance(_ lhs: String, _ rhs: String) -> Int {
        let a = Array(lhs)
        let b = Array(rhs)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var table = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }
}
