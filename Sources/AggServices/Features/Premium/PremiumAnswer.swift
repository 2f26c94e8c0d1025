import AggCore

/// What `agg premium` and `/v1/premium` answer: the board as fetched, and its rendering as the
/// request asks (rows selected and ordered, with each venue's premium percentile when history
/// exists).
package struct PremiumAnswer: Sendable {
    package var result: PremiumService.Result
    package var rendering: PremiumRendering

    package init(result: PremiumService.Result, rendering: PremiumRendering) {
        self.result = result
        self.rendering = rendering
    }
}

extension PremiumService {
    /// Opens the history the percentiles are read from; `nil` answers without percentiles.
    package typealias OpenHistory = @Sendable () -> (any HistoryStore)?

    /// The answer to `request`: the board fetched, shown as asked, each venue's FX-basis premium
    /// set among those recorded over the seven days before the board (`history`, when given).
    package func run(_ request: PremiumRequest, history: OpenHistory?) async -> PremiumAnswer {
        let result = await run(request.service)
        var rendering = request.rendering(result)
        if let history {
            rendering.percentiles = await PremiumPercentiles.load(
                store: history(),
                current: rendering.rows.flatMap { row in
                    row.venues.compactMap { venue in
                        venue.trustedPremiumPercent(on: .fx).map {
                            PremiumPercentiles.Current(exchange: venue.exchange, symbol: row.base, percent: $0)
                        }
                    }
                }, now: result.asOf)
        }
        return PremiumAnswer(result: result, rendering: rendering)
    }
}
