import AggJSON
import FoundationEssentials

extension AlertRule {
    /// The grammar in words, for messages.
    public static let grammar =
        "[VENUE:]SYMBOL FIELD OP VALUE (such as 'upbit:BTC premium > 3%') or SYMBOL withdraw|deposit closed"

    /// Parses one `--alert` expression. `venues` are the registered venues (a rule's venue must be
    /// one of them, and a transfer rule's venue must publish transfer status).
    ///
    /// Every failure is a usage error that quotes the expression and names the part that is
    /// wrong: `--alert 'upbit:BTC premim > 3%': unknown field 'premim' (last, premium, usdtPremium, change)`.
    public static func parse(_ text: String, venues: [AdapterDescriptor]) throws(AggError) -> AlertRule {
        func failure(_ detail: String) -> AggError { .usage("--alert '\(text)': \(detail)") }
        let tokens = Token.split(text)
        guard let first = tokens.first else { throw failure("expected \(grammar)") }
        guard !first.isOperator else { throw failure("expected [VENUE:]SYMBOL before '\(first.text)'") }

        if let kind = try eventKind(tokens.dropFirst().map(\.text), failure: failure) {
            let (venue, symbol) = try target(first.text, venues: venues, allowingAny: true, failure: failure)
            return AlertRule(venue: venue, symbol: symbol, condition: .event(kind))
        }
        let (venue, symbol) = try target(first.text, venues: venues, failure: failure)
        let fieldNames = Field.allCases.map(\.rawValue).joined(separator: ", ")
        guard tokens.count > 1 else { throw failure("missing FIELD after '\(first.text)' (\(fieldNames))") }
        let fieldToken = tokens[1]
        guard !fieldToken.isOperator else {
            throw failure("missing FIELD before '\(fieldToken.text)' (\(fieldNames))")
        }

        if let direction = Direction.allCases.first(where: { $0.rawValue == fieldToken.text.lowercased() }) {
            if let venue, let descriptor = venues.first(where: { $0.id == venue }),
                !descriptor.supports(.transferStatus)
            {
                let publishing = venues.filter { $0.supports(.transferStatus) }.map(\.id)
                throw failure(
                    "\(venue) publishes no transfer status (\(publishing.joined(separator: ", ")) do)")
            }
            guard tokens.count > 2 else { throw failure("expected 'closed' after '\(fieldToken.text)'") }
            guard tokens[2].text.lowercased() == "closed" else {
                throw failure("unknown transfer state '\(tokens[2].text)': an alert waits for 'closed'")
            }
            if tokens.count > 3 { throw failure("unexpected '\(tokens[3].text)' after 'closed'") }
            return AlertRule(venue: venue, symbol: symbol, condition: .closed(direction))
        }
        guard let field = Field.allCases.first(where: { $0.rawValue.lowercased() == fieldToken.text.lowercased() })
        else { throw failure("unknown field '\(fieldToken.text)' (\(fieldNames))") }

        let operators = Comparison.allCases.map(\.rawValue).joined(separator: ", ")
        guard tokens.count > 2 else { throw failure("missing OP after '\(fieldToken.text)' (\(operators))") }
        let operatorToken = tokens[2]
        guard operatorToken.isOperator, let comparison = Comparison(rawValue: operatorToken.text) else {
            throw failure("unknown operator '\(operatorToken.text)' (\(operators))")
        }
        guard tokens.count > 3 else { throw failure("missing VALUE after '\(operatorToken.text)'") }
        let valueToken = tokens[3]
        let threshold = try value(valueToken.text, field: field, failure: failure)
        if tokens.count > 4 { throw failure("unexpected '\(tokens[4].text)' after '\(valueToken.text)'") }
        return AlertRule(venue: venue, symbol: symbol, condition: .threshold(field, comparison, threshold))
    }

    /// The event kind `words` (what follows the target) name, or `nil` when they name none
    /// (then the rule is a threshold or transfer rule): `listed`, `delisted`, `notice`,
    /// `caution on|off`, `warning on|off`, or a kind's own name (`caution_on`), in any case.
    private static func eventKind(_ words: [String], failure: (String) -> AggError) throws(AggError)
        -> MarketEventKind?
    {
        guard let first = words.first?.lowercased() else { return nil }
        let consumed: Int
        let kind: MarketEventKind
        if let named = eventKinds.first(where: { $0.rawValue == first }) {
            (kind, consumed) = (named, 1)
        } else if first == "caution" || first == "warning" {
            guard words.count > 1 else { throw failure("expected 'on' or 'off' after '\(words[0])'") }
            switch (first, words[1].lowercased()) {
            case ("caution", "on"): kind = .cautionOn
            case ("caution", "off"): kind = .cautionOff
            case ("warning", "on"): kind = .warningOn
            case ("warning", "off"): kind = .warningOff
            default: throw failure("unknown \(first) state '\(words[1])': expected 'on' or 'off'")
            }
            consumed = 2
        } else {
            return nil
        }
        if words.count > consumed {
            throw failure("unexpected '\(words[consumed])' after '\(words[consumed - 1])'")
        }
        return kind
    }

    /// `[VENUE:]SYMBOL`: the venue checked against the registered ones, the symbol as the
    /// command line checks symbols; `allowingAny` takes `*` as well (an event rule's every coin).
    private static func target(
        _ text: String, venues: [AdapterDescriptor], allowingAny: Bool = false, failure: (String) -> AggError
    ) throws(AggError) -> (String?, String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard parts.count <= 2 else { throw failure("expected [VENUE:]SYMBOL, found '\(text)'") }
        var venue: String?
        if parts.count == 2 {
            let id = parts[0].lowercased()
            guard !id.isEmpty else { throw failure("missing VENUE before ':'") }
            guard venues.contains(where: { $0.id == id }) else {
                throw failure(
                    "unknown exchange '\(parts[0])' (known: \(venues.map(\.id).sorted().joined(separator: ", ")))")
            }
            venue = id
        }
        if allowingAny, parts[parts.count - 1] == anySymbol { return (venue, anySymbol) }
        do throws(AggError) {
            return (venue, try AssetCode.validate(parts[parts.count - 1]))
        } catch {
            throw failure(error.summary)
        }
    }

    /// A threshold: a strict decimal (`DecimalText`'s grammar, without an exponent), with `%`
    /// exactly when the field is a percent; a price is never negative.
    private static func value(_ text: String, field: Field, failure: (String) -> AggError) throws(AggError)
        -> Decimal
    {
        let percent = text.hasSuffix("%")
        let number = percent ? String(text.dropLast()) : text
        let expected =
            field.isPercent
            ? "expected a percent such as 3% or -0.5%" : "expected a price such as 80000000 or 0.25"
        guard !number.utf8.contains(where: { $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }),
            let value = try? DecimalText.parse(number)
        else { throw failure("invalid VALUE '\(text)': \(expected)") }
        if field.isPercent, !percent {
            throw failure("\(field.rawValue) is a percent: write the VALUE with '%', such as \(text)%")
        }
        if !field.isPercent, percent {
            throw failure("last is a price in the market's currency: write the VALUE without '%'")
        }
        if !field.isPercent, value < 0 { throw failure("invalid VALUE '\(text)': \(expected)") }
        return value
    }
}

/// A word of an expression: a run of operator characters (`<`, `>`, `=`, `!`) or of anything
/// else but white space, so that `BTC last>3` reads as `BTC last > 3`.
private struct Token {
    var text: String
    var isOperator: Bool

    static func split(_ text: String) -> [Token] {
        var tokens: [Token] = []
        var current = ""
        var currentIsOperator = false
        for character in text {
            if character.isWhitespace {
                if !current.isEmpty { tokens.append(Token(text: current, isOperator: currentIsOperator)) }
                current = ""
                continue
            }
            let isOperator = "<>=!".contains(character)
            if !current.isEmpty, isOperator != currentIsOperator {
                tokens.append(Token(text: current, isOperator: currentIsOperator))
                current = ""
            }
            current.append(character)
            currentIsOperator = isOperator
        }
        if !current.isEmpty { tokens.append(Token(text: current, isOperator: currentIsOperator)) }
        return tokens
    }
}
