import AggCore
import AggOptions

/// What `agg status` and `/v1/status` ask for, checked: the coins (each once) and the venues
/// that publish transfer status. Built from the parsed options (the command line, or `agg
/// serve`'s query turned into one); holds every validation.
package struct StatusRequest: Sendable {
    var coins: [String]
    package var venues: [AdapterDescriptor]

    package init(_ arguments: ParsedArguments, options: NetworkOptions, registry: AdapterRegistry) throws(AggError) {
        var coins: [String] = []
        for text in arguments.positionals {
            let coin = try AssetCode.validate(text)
            if !coins.contains(coin) { coins.append(coin) }
        }
        self.coins = coins
        venues = try TransferStatusService.venues(
            in: registry, named: options.exchanges.explicit ? options.exchanges.ids : [])
    }
}

extension TransferStatusService {
    /// The answer to `request`: each venue asked once, the rows of its coins kept.
    package func run(_ request: StatusRequest) async -> Report {
        await run(coins: request.coins, venues: request.venues)
    }
}
