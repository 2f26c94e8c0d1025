import AggCore
import AggJSON
import AggOptions
import FoundationEssentials

/// `agg search`: markets whose symbol or published name matches what was typed, across venues.
package enum SearchCommand {
    static let quote = Option<String>(
        "quote", short: "q", value: "CUR", help: "Only markets quoted in this currency.", parser: .assetCode)
    static let limit = Setting(
        Option<Int>("limit", short: "n", value: "N", help: "", parser: .wholeNumber(in: 1...maximumLimit)),
        help: "Show at most N results, up to \(maximumLimit)", builtIn: defaultLimit, shown: { "\($0)" })

    package static let spec = CommandSpec(
        name: "search",
        summary: "Find markets by symbol or by Korean or English name, with the last price.",
        arguments: "QUERY...",
        options: [CommonOptions.exchange, quote, limit] + CommonOptions.network,
        positionals: (1, nil),
        examples: [
            "agg search ET",
            "agg search 비트코인",
            "agg search bitcoin --quote KRW --format json",
        ],
        discussion: """
            Symbols match first by prefix, then anywhere (ET finds ETH and ETC before VET); names
            match where a venue publishes them (Upbit gives Korean and English names). The last
            price is shown when the venue gives every ticker in one request. Several words are
            one query: agg search bitcoin cash. A venue whose list takes several requests shows
            what answered; each failed request is one line on stderr (and an entry in JSON
            errors) and the exit code is 1. An entry of a list that does not read is left out
            and costs only itself (named under AGG_DEBUG, and in JSON errors). --quote asks only
            for that currency's list.
            """
    )

    static let defaultLimit = 30
    static let maximumLimit = 1000
}
