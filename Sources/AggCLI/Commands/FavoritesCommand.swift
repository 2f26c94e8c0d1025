import AggCore
import AggJSON
import AggStore

/// `agg favorites`: the currencies and coins listed first by `agg rates` and `agg quote`.
///
/// Which list a code goes to: `--currency` puts it in the currency list (three letters, used by
/// `agg rates`), `--coin` in the coin list (used by `agg quote`). Without either, a
/// three-letter code goes into both lists, since it may be either (`KRW`, `ETH`), and any other
/// code (`USDT`, `1INCH`) into the coin list only. A code in a list it does not appear in is
/// harmless: it orders nothing.
public enum FavoritesCommand: Command {
    static let currency = Flag("currency", help: "Only the currency list (three-letter codes, for `agg rates`).")
    static let coin = Flag("coin", help: "Only the coin list (for `agg quote`).")

    /// The command line `agg help` describes.
    public static let spec = CommandSpec(
        name: "favorites",
        summary: "Add, remove or list favorite currencies and coins, which are listed first.",
        arguments: "add|remove|list [CODE...]",
        options: [currency, coin, CommonOptions.format],
        positionals: (1, nil),
        examples: [
            "agg favorites add KRW JPY",
            "agg favorites add BTC ETH --coin",
            "agg favorites remove JPY",
            "agg favorites list --format json",
        ],
        discussion: """
            Without --currency or --coin, a three-letter code (KRW, ETH) goes into both lists, any
            other code (USDT, 1INCH) into the coin list. Favorites come first in every listing of
            agg rates and agg quote, then the rest in their usual order. After add and remove the
            updated favorites are printed as list prints them.
            """
    )

    /// The sub-commands.
    enum Action: String, CaseIterable {
        case add, remove, list
    }

    /// Runs the command; store failures are thrown as `AggError.store` (exit 70).
    public static func run(_ arguments: ParsedArguments, context: CLIContext) async throws(AggError)
        -> ExitCode
    {
        let actionName = arguments.positionals[0]
        guard let action = Action(rawValue: actionName.lowercased()) else {
            let names = Action.allCases.map(\.rawValue)
            let hint = Suggestion.closest(to: actionName, among: names).map { "did you mean '\($0)'?" }
            throw .usage(
                "unknown action '\(actionName)'; "
                    + (hint ?? "expected one of: \(names.joined(separator: ", "))"))
        }
        if arguments[Self.currency] && arguments[Self.coin] {
            throw .usage("give --currency or --coin, not both (neither: both lists where the code fits)")
        }
        let only: FavoriteKind? =
            arguments[Self.currency] ? .currency : arguments[Self.coin] ? .symbol : nil
        let texts = Array(arguments.positionals.dropFirst())
        switch action {
        case .list:
            if let extra = texts.first { throw .usage("unexpected argument '\(extra)'; usage: agg \(spec.usage)") }
        case .add, .remove:
            if texts.isEmpty { throw .usage("name at least one CODE to \(action.rawValue); usage: agg \(spec.usage)") }
        }
        let entries = try plan(texts, only: only)

        let store = try LocalStore.open(context)
        var notFavorites: [String] = []
        switch action {
        case .add:
            for kind in FavoriteKind.allCases {
                let codes = entries.filter { $0.kinds.contains(kind) }.map(\.code)
                if !codes.isEmpty { try store.addFavorites(codes, kind: kind) }
            }
        case .remove:
            var removedSomewhere: Set<String> = []
            for kind in FavoriteKind.allCases {
                let codes = entries.filter { $0.kinds.contains(kind) }.map(\.code)
                guard !codes.isEmpty else { continue }
                let missing = Set(try store.removeFavorites(codes, kind: kind))
                removedSomewhere.formUnion(codes.filter { !missing.contains($0) })
            }
            notFavorites = entries.map(\.code).filter { !removedSomewhere.contains($0) }
        case .list:
            break
        }

        var listing: [(kind: FavoriteKind, codes: [String])] = []
        for kind in FavoriteKind.allCases where only == nil || only == kind {
            listing.append((kind, try store.favorites(kind: kind)))
        }
        let format = OutputFormat.resolve(context.settings(arguments), console: context.console)
        Output.write(FavoritesRendering(listing: listing), format: format, style: .plain, console: context.console)
        for code in notFavorites {
            context.console.printError("agg: \(code) is not a favorite")
        }
        return notFavorites.isEmpty ? .success : .sourceFailed
    }

    /// A validated code and the lists it goes to.
    struct Entry: Equatable {
        var code: String
        var kinds: [FavoriteKind]
    }

    /// Validates every code before the database is touched, and decides its lists.
    static func plan(_ texts: [String], only: FavoriteKind?) throws(AggError) -> [Entry] {
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

    /// The word for a list in output: `currency` and `coin`.
    static func label(_ kind: FavoriteKind) -> String {
        switch kind {
        case .currency: "currency"
        case .symbol: "coin"
        }
    }
}
