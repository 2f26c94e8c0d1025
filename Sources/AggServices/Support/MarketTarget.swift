import AggCore
import AggOptions

/// One market on one venue: what `agg candles`, `agg trades` and `agg book` ask for, checked
/// against the venue's capabilities and limits before any request.
package struct MarketTarget: Sendable {
    package var descriptor: AdapterDescriptor
    package var market: Market

    /// The venue from `--exchange` (exactly one, able to do `capability`), else the first
    /// venue in the config file that can; and the market from `symbol`.
    static func resolve(
        symbol: String, capability: Capability, options: NetworkOptions, registry: AdapterRegistry,
        command: String
    ) throws(AggError) -> MarketTarget {
        let able = registry.descriptors(supporting: capability).map(\.id)
        let ableText =
            able.isEmpty ? "none is registered" : "venues with \(capability.title): \(able.joined(separator: ", "))"
        let descriptor: AdapterDescriptor
        if options.exchanges.explicit {
            guard options.exchanges.ids.count == 1, let id = options.exchanges.ids.first else {
                throw .usage("'agg \(command)' asks one venue; give a single --exchange ID")
            }
            descriptor = try registry.requireDescriptor(id: id)
            guard descriptor.supports(capability) else {
                throw .usage("\(descriptor.id) does not provide \(capability.title); \(ableText)")
            }
        } else if let configured = options.exchanges.ids.compactMap(registry.descriptor(id:))
            .first(where: { $0.supports(capability) })
        {
            descriptor = configured
        } else {
            throw .usage("name the venue with --exchange ID; \(ableText)")
        }
        let market = try Market.parse(symbol, defaultQuote: options.quoteCurrency ?? descriptor.homeCurrency)
        guard descriptor.quoteCurrencies.contains(market.quote) else {
            throw .usage(
                "\(descriptor.id) does not quote in \(market.quote) (it quotes in \(descriptor.quoteCurrencies.joined(separator: ", ")))"
            )
        }
        return MarketTarget(descriptor: descriptor, market: market)
    }

    /// The count given for `option` (`--limit`, `--depth`), or `standard`; it must be from 1
    /// to `maximum`, this venue's limit.
    func count(_ given: VenueCount?, option: any OptionDeclaration, standard: Int, maximum: Int)
        throws(AggError) -> Int
    {
        guard let given else { return min(standard, maximum) }
        guard let value = given.value, (1...maximum).contains(value) else {
            throw .usage(
                "invalid --\(option.spec.name) '\(given.text)': expected a whole number from 1 to \(maximum) for \(descriptor.id)"
            )
        }
        return value
    }
}

/// A count whose range depends on the venue (`--limit`, `--depth`): parsed as typed, checked
/// once the venue is known, so that the message can name the venue's limit.
package struct VenueCount: Sendable {
    var text: String
    /// The whole number, when the text is one.
    var value: Int?
}

extension Setting where Value == VenueCount, BuiltIn == DecidedPerRun {
    /// `--limit N` or `--depth N`: `standard` unless the venue's limit is lower.
    static func venueCount(_ name: String, short: Character, help: String, standard: Int) -> Setting {
        Setting(
            Option.venueCount(name, short: short, help: ""), help: help,
            builtIn: DecidedPerRun("\(standard), or the venue's limit when lower"))
    }
}

extension Option where Value == VenueCount {
    /// `--limit N` or `--depth N`, at most the venue's limit.
    static func venueCount(_ name: String, short: Character, help: String) -> Option {
        Option(
            name, short: short, value: "N", help: help,
            parser: ValueParser(expected: "a whole number") { text in
                VenueCount(text: text, value: NumberText.wholeNumber(text))
            })
    }
}
