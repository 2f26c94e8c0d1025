import AggCore
import AggStore
import FoundationEssentials

/// Everything `compare` learned: the comparison, the venues that failed or do not list the coin,
/// and why rates were missing.
package struct CompareReport: Sendable {
    /// One venue's outcome, in the plan's order.
    package enum Outcome: Sendable {
        case compared(PriceComparison.Row)
        case notListed(AggError)
        case failed(AggError)
    }

    var plan: ComparePlan
    var comparison: PriceComparison
    var outcomes: [(venue: ComparePlan.Venue, outcome: Outcome)]
    /// The quote each venue answered, by the index of its outcome (`nil` for a failure): its
    /// times give the row's age.
    var quotes: [Quote?]
    /// Why each missing input could not be had.
    var unavailable: [RateInput: String]
    /// FX sources that failed when no source gave the rates needed.
    var fxFailures: [(source: String, error: AggError)]

    package init(
        plan: ComparePlan, results: [QuoteResult], values: [RateInput: RateValue],
        unavailable: [RateInput: String], fxFailures: [(String, AggError)]
    ) {
        self.plan = plan
        self.unavailable = unavailable
        self.fxFailures = fxFailures.map { (source: $0.0, error: $0.1) }
        let prices: [PriceComparison.Price] = zip(plan.venues, results).compactMap { venue, result in
            guard case .success(let quote) = result else { return nil }
            return PriceComparison.Price(exchange: venue.venue, market: quote.market, last: quote.last)
        }
        comparison = PriceComparison(
            coin: plan.coin, currency: plan.currency, prices: prices, stablecoins: plan.stablecoins, values: values)
        quotes = results.map { try? $0.get() }
        var rows = comparison.rows.makeIterator()
        outcomes = zip(plan.venues, results).map { venue, result in
            switch result {
            case .success:
                guard let row = rows.next() else {
                    return (venue, .failed(.decoding(venue: venue.venue, path: "$", detail: "no price")))
                }
                return (venue, .compared(row))
            case .failure(let error):
                return (venue, error.isNotListed ? .notListed(error) : .failed(error))
            }
        }
    }

    /// Why there is no premium at all, when a stablecoin's reference (the dollar at the FX
    /// rate) could not be had though some venue's price was converted.
    var referenceFailure: String? {
        let problems = comparison.referenceProblems
        guard comparison.reference == nil, !problems.isEmpty, comparison.rows.contains(where: { $0.converted != nil })
        else { return nil }
        return "no premium for \(plan.coin): " + text(problems)
    }

    /// Whether a venue or a conversion failed (exit code 1). Unlisted venues do not count.
    var hasFailures: Bool {
        if referenceFailure != nil { return true }
        return outcomes.contains { _, outcome in
            switch outcome {
            case .compared(let row): row.converted == nil
            case .notListed: false
            case .failed: true
            }
        }
    }

    /// Why `row` could not be converted, in one line.
    func conversionFailure(_ row: PriceComparison.Row) -> String {
        "cannot convert to \(plan.currency): " + text(row.problems)
    }

    /// `problems` in one line, each missing input with why it could not be had.
    private func text(_ problems: [Conversion.Problem]) -> String {
        problems.map { problem in
            guard case .missing(let input) = problem, let reason = unavailable[input] else {
                return problem.description
            }
            return "\(problem) (\(reason))"
        }.joined(separator: "; ")
    }

    /// One line per failure for standard error, without the `agg: ` prefix.
    var problemLines: [String] {
        let venueLines: [String] = outcomes.compactMap { venue, outcome in
            switch outcome {
            case .compared(let row) where row.converted == nil:
                "\(venue.venue) \(venue.market): \(conversionFailure(row))"
            case .failed(let error): "\(venue.venue) \(venue.market): \(error.summaryNamingNoMarket)"
            default: nil
            }
        }
        return venueLines + (referenceFailure.map { [$0] } ?? [])
    }
}
