import AggCore
import AggOptions
import AggStore

/// `agg favorites`: the currencies and coins listed first by `agg rates` and `agg quote`.
///
/// Which list a code goes to: `--currency` puts it in the currency list (three letters, used by
/// `agg rates`), `--coin` in the coin list (used by `agg quote`). Without either, a
/// three-letter code goes into both lists, since it may be either (`KRW`, `ETH`), and any other
/// code (`USDT`, `1INCH`) into the coin list only. A code in a list it does not appear in is
/// harmless: it orders nothing.
package enum FavoritesCommand {
    static let currency = Flag(
        "currency", help: "Only the currency list (three-letter codes, for `agg rates`).")
    static let coin = Flag("coin", help: "Only the coin list (for `agg quote`).")

    /// The command line `agg help` describes.
    package static let spec = CommandSpec(
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
}
