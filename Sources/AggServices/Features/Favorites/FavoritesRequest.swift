import AggCore
import AggOptions
import AggStore

/// What `agg favorites` was asked, every code checked before the database is touched: the
/// action, the lists it concerns, and each code with the lists it goes to.
package struct FavoritesRequest: Sendable, Equatable {
    /// The sub-commands.
    enum Action: String, CaseIterable, Sendable {
        case add, remove, list
    }

    /// A validated code and the lists it goes to.
    package struct Entry: Sendable, Equatable {
        var code: String
        var kinds: [FavoriteKind]
    }

    var action: Action
    /// `--currency` or `--coin`: the one list concerned; `nil` for both.
    var only: FavoriteKind?
    var entries: [Entry]

    /// - Throws: a usage error for an unknown action (with the closest one), `--currency` with
    ///   `--coin`, codes after `list`, no code after `add` or `remove`, or a malformed code.
    package init(_ arguments: ParsedArguments) throws(AggError) {
        let actionName = arguments.positionals.first ?? ""
        guard let action = Action(rawValue: actionName.lowercased()) else {
            let names = Action.allCases.map(\.rawValue)
            let hint = Suggestion.closest(to: actionName, among: names).map { "did you mean '\($0)'?" }
            throw .usage(
                "unknown action '\(actionName)'; "
                    + (hint ?? "expected one of: \(names.joined(separator: ", "))"))
        }
        if arguments[FavoritesCommand.currency] && arguments[FavoritesCommand.coin] {
            throw .usage("give --currency or --coin, not both (neither: both lists where the code fits)")
        }
        let only: FavoriteKind? =
            arguments[FavoritesCommand.currency] ? .currency : arguments[FavoritesCommand.coin] ? .symbol : nil
        let texts = Array(arguments.positionals.dropFirst())
        let usage = FavoritesCommand.spec.usage
        switch action {
        case .list:
            if let extra = texts.first { throw .usage("unexpected argument '\(extra)'; usage: agg \(usage)") }
        case .add, .remove:
            if texts.isEmpty { throw .usage("name at least one CODE to \(action.rawValue); usage: agg \(usage)") }
        }
        self.action = action
        self.only = only
        self.entries = try Self.entries(texts, only: only)
    }

    /// Validates every code and decides its lists: without `only`, a three-letter code goes
    /// into both lists, any other code into the coin list.
    static func entries(_ texts: [String], only: FavoriteKind?) throws(AggError) -> [Entry] {
        var entries: [Entry] = []
        for text in texts {
            let entry: Entry
            switch only {
            case .currency?: entry = Entry(code: try AssetCode.validateCurrency(text), kinds: [.currency])
            case .symbol?: entry = Entry(code: try AssetCode.validate(text), kinds: [.symbol])
            case nil:
                let code = try AssetCode.validate(text)
                let isCurrency = (try? AssetCode.validateCurrency(code)) != nil
                entry = Entry(code: code, kinds: isCurrency ? [.currency, .symbol] : [.symbol])
            }
            if !entries.contains(entry) { entries.append(entry) }
        }
        return entries
    }
}
