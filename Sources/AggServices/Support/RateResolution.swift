import AggCore
import AggOptions
import FoundationEssentials

/// The rate inputs a conversion needs (`RateInput`), the sources asked for them and how their
/// answers become one value each: shared by `agg compare` and `agg arb`, so that both pick the
/// FX rate (`--fx`, else the freshest, refused past `--max-fx-age`) and the USDT/KRW price the
/// same way.
package struct RateResolution: Sendable {
    /// The inputs the conversion needs.
    var inputs: Set<RateInput>
    /// `--fx` and `--max-fx-age`.
    var fx: FXOptions
    /// FX adapters, in the order they are preferred.
    var fxSources: [String]
    /// Venues that may quote USDT in KRW, in the order they are preferred.
    var usdtVenues: [String]
    /// The credit each FX source asks for wherever its rates are shown, by id.
    var attributions: [String: String]

    /// The venue market for USDT priced in KRW.
    static let usdtMarket = Market(base: "USDT", quote: "KRW")

    /// The sources of `inputs`: every FX source `fx` allows when an FX rate is needed (the
    /// default source of `agg rates` first, in the order failures are told), and the Korean
    /// venues for USDT/KRW, those in `preferred` (the venues already asked) first.
    init(inputs: Set<RateInput>, fx: FXOptions, registry: AdapterRegistry, preferringUSDTOn preferred: Set<String>) {
        self.inputs = inputs
        self.fx = fx
        let fxDescriptors =
            inputs.contains { if case .fx = $0 { true } else { false } }
            ? fx.sources(among: registry.descriptors(supporting: .fxRates)) : []
        // All asked at the same time; the rate used is the freshest (or --fx's). The default FX source
        // of `agg rates` leads the order failures are told in.
        fxSources =
            fxDescriptors.filter { $0.id == RatesService.defaultSource }.map(\.id)
            + fxDescriptors.filter { $0.id != RatesService.defaultSource }.map(\.id)
        attributions = Dictionary(
            fxDescriptors.compactMap { descriptor in descriptor.attribution.map { (descriptor.id, $0) } }
        ) { first, _ in first }
        if inputs.contains(.usdtInKRW) {
            let korean = registry.descriptors(supporting: .ticker, quotedIn: Self.usdtMarket.quote).map(\.id)
            usdtVenues = korean.filter { preferred.contains($0) } + korean.filter { !preferred.contains($0) }
        } else {
            usdtVenues = []
        }
    }

    /// Every FX source's USD table: `stored`'s when there is one, else asked, all at once.
    func fetchFX(factory: AdapterFactory, stored: [String: RateTable]) async -> [Result<RateTable, AggError>] {
        await concurrentMap(fxSources) { source in
            if let table = stored[source] { return Result<RateTable, AggError>.success(table) }
            return await .catching { () throws(AggError) in
                try await factory.adapter(id: source).rates(base: Conversion.fxBase)
            }
        }
    }

    /// Every USDT/KRW venue's ticker: `known`'s answer when there is one, else asked, all at once.
    func fetchUSDT(factory: AdapterFactory, known: [String: QuoteResult]) async -> [QuoteResult] {
        await concurrentMap(usdtVenues) { venue in
            if let answer = known[venue] { return answer }
            return await Self.ticker(Self.usdtMarket, on: venue, factory: factory)
        }
    }

    /// `market` on `venue` (the venue's own not-found answer is already `.notListed`).
    static func ticker(_ market: Market, on venue: String, factory: AdapterFactory) async -> QuoteResult {
        let adapter: any VenueAdapter
        do throws(AggError) {
            adapter = try factory.adapter(id: venue)
        } catch {
            return .failure(error)
        }
        return await QuoteResult.catching { () throws(AggError) in try await adapter.quote(for: market) }
    }

    /// The values of the inputs that could be had, and why the others could not. The FX rate
    /// comes from the table `FXChoice` picks (`--fx`, else the freshest), refused when it is
    /// older than `--max-fx-age` at `time`.
    func values(fx: [Result<RateTable, AggError>], usdt: [QuoteResult], at time: Timestamp)
        -> ([RateInput: RateValue], [RateInput: String])
    {
        var values: [RateInput: RateValue] = [:]
        var unavailable: [RateInput: String] = [:]
        for input in inputs.sorted() {
            switch input {
            case .fx(let target):
                var reasons: [String] = []
                var usable: [RateTable] = []
                for (source, result) in zip(fxSources, fx) {
                    switch result {
                    case .success(let table) where table.base != Conversion.fxBase:
                        reasons.append("\(source) answered rates from \(table.base), not \(Conversion.fxBase)")
                    case .success(let answered):
                        let table = answered.screened()
                        if let refusal = table.refused.first(where: { $0.code == target }) {
                            reasons.append("\(source): \(refusal)")
                            continue
                        }
                        guard target == table.base || table.rates[target] != nil else {
                            reasons.append("\(source) has no \(target) rate")
                            continue
                        }
                        usable.append(table)
                    case .failure(let error):
                        reasons.append(error.description)
                    }
                }
                if !usable.isEmpty {
                    do throws(AggError) {
                        let table = try FXChoice.choose(
                            from: usable, named: self.fx.source, quote: target, now: time,
                            maximumAgeSeconds: self.fx.maximumAgeSeconds)
                        if let rate = target == table.base ? 1 : table.rates[target] {
                            values[input] = RateValue(value: rate, source: table.source, asOf: table.asOf)
                        }
                    } catch {
                        reasons.append(error.description)
                    }
                }
                if fxSources.isEmpty { reasons.append("no exchange-rate source is registered") }
                if values[input] == nil { unavailable[input] = reasons.joined(separator: "; ") }
            case .usdtInKRW:
                var reasons: [String] = []
                for (venue, result) in zip(usdtVenues, usdt) {
                    switch result {
                    case .success(let quote) where quote.last <= 0:
                        reasons.append("\(venue): \(Self.usdtMarket) price \(quote.last) is not a rate")
                    case .success(let quote):
                        if values[input] == nil {
                            values[input] = RateValue(
                                value: quote.last, source: "\(venue) \(Self.usdtMarket)", asOf: quote.timestamp)
                        }
                    case .failure(let error):
                        reasons.append("\(venue): \(error.summaryNamingNoMarket)")
                    }
                }
                if usdtVenues.isEmpty { reasons.append("no registered venue quotes in KRW") }
                if values[input] == nil { unavailable[input] = reasons.joined(separator: "; ") }
            }
        }
        return (values, unavailable)
    }
}
