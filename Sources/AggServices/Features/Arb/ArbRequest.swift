import AggCore
import AggOptions
import FoundationEssentials

/// What `agg arb` asks for, checked: the coin, two different venues that both have order books
/// (each priced in its home currency), the notional and its currency, and the rate inputs the
/// conversions need. Every refusal is a usage error (exit 64) before anything is asked.
package struct ArbRequest: Sendable {
    package var coin: String
    package var from: AdapterDescriptor
    package var to: AdapterDescriptor
    package var notional: Decimal
    package var currency: String
    /// The market bought on `from` and sold on `to`.
    package var buyMarket: Market
    package var sellMarket: Market
    var rates: RateResolution

    package init(_ arguments: ParsedArguments, context: CLIContext) throws(AggError) {
        coin = try AssetCode.validate(arguments.positionals[0])
        guard let fromID = arguments[ArbCommand.from] else {
            throw .usage("arb needs --from VENUE (the venue to buy on)")
        }
        guard let toID = arguments[ArbCommand.to] else { throw .usage("arb needs --to VENUE (the venue to sell on)") }
        guard let notional = arguments[ArbCommand.notional] else {
            throw .usage("arb needs --notional AMOUNT (such as 10M)")
        }
        self.notional = notional
        currency = context.settings(arguments).value(ArbCommand.currency)
        let registry = context.registry
        from = try Self.venue(fromID, registry: registry)
        to = try Self.venue(toID, registry: registry)
        guard from.id != to.id else {
            throw .usage("--from and --to are both \(from.id): a route needs two different venues")
        }
        for venue in [from, to] where venue.homeCurrency == coin {
            throw .usage("\(coin) is \(venue.id)'s own quote currency: there is no \(coin) book to walk")
        }
        buyMarket = Market(base: coin, quote: from.homeCurrency)
        sellMarket = Market(base: coin, quote: to.homeCurrency)
        rates = RateResolution(
            inputs: ArbPlanner.inputs(currency: currency, buyQuote: buyMarket.quote, sellQuote: sellMarket.quote),
            fx: try FXOptions(arguments, registry: registry), registry: registry,
            preferringUSDTOn: [from.id, to.id])
    }

    /// The venue `id` names, which must have an order book.
    static func venue(_ id: String, registry: AdapterRegistry) throws(AggError) -> AdapterDescriptor {
        let descriptor = try registry.requireDescriptor(id: id)
        guard descriptor.supports(.orderBook) else {
            throw .usage("\(descriptor.id) has no order book to walk; see 'agg exchanges'")
        }
        return descriptor
    }

    /// Every venue and FX source the run may ask, each once, in order.
    package var venues: [String] {
        ([from.id, to.id] + rates.fxSources + rates.usdtVenues).reduce(into: []) {
            if !$0.contains($1) { $0.append($1) }
        }
    }
}
