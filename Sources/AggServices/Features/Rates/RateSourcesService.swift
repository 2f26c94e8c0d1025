import AggCore
import FoundationEssentials

/// `agg rates BASE --to QUOTE --source all`: one rate from every FX source, and, for USD, the
/// rate the market implies (USDT's price on each venue quoting in QUOTE), all asked at once.
package struct RateSourcesService: Sendable {
    /// What came back.
    package struct Result: Sendable {
        var sources: RateSources
        /// One per source or venue that failed.
        var errors: [AggError]
        /// When the answers were put together.
        var asOf: Timestamp
    }

    var factory: AdapterFactory
    var registry: AdapterRegistry
    var now: @Sendable () -> Timestamp

    func run(base: String, quote: String) async -> Result {
        let factory = self.factory
        let fxSources = registry.descriptors(supporting: .fxRates)
        let venues =
            base == Conversion.fxBase ? registry.descriptors(supporting: .ticker, quotedIn: quote) : []
        let usdt = Market(base: "USDT", quote: quote)
        async let tables = concurrentResults(fxSources) { descriptor throws(AggError) in
            try await factory.adapter(id: descriptor.id).rates(base: base).screened()
        }
        async let prices = concurrentResults(venues) { descriptor throws(AggError) in
            try await factory.adapter(id: descriptor.id).quote(for: usdt)
        }
        var errors: [AggError] = []
        var answered: [RateTable] = []
        for result in await tables {
            switch result {
            case .success(let table): answered.append(table)
            case .failure(let error): errors.append(error)
            }
        }
        var quotes: [Quote] = []
        for result in await prices {
            switch result {
            case .success(let price): quotes.append(price)
            // A venue without a USDT market simply has no market rate to offer.
            case .failure(let error) where error.isNotListed: continue
            case .failure(let error): errors.append(error)
            }
        }
        for table in answered where table.base == base && table.rates[quote] == nil && base != quote {
            errors.append(.fxUnavailable("\(table.source) has no \(base)→\(quote) rate"))
        }
        return Result(
            sources: RateSources(base: base, quote: quote, tables: answered, market: quotes), errors: errors,
            asOf: now())
    }
}
