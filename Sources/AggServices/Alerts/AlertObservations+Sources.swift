import AggCore

extension AlertObservations {
    /// The readings of one `agg watch` refresh: each quote's last price and change percent, by
    /// venue and coin (the first market of a coin on a venue counts), for the coins in
    /// `symbols` (those the rules name). Failures read as nothing.
    package init(outcomes: [QuoteService.Outcome], transfers: [TransferStatus] = [], symbols: Set<String>) {
        self.init()
        for outcome in outcomes where symbols.contains(outcome.market.base) {
            guard case .success(let quote) = outcome.result else { continue }
            record(quote)
        }
        record(transfers: transfers.filter { symbols.contains($0.coin) })
    }

    /// The readings of one board: every ticker's last price and change, each local venue's
    /// premiums on both bases (a global venue's figure is its deviation from the reference, not
    /// a premium; an outlier's is most likely another coin's, and fires nothing), and the
    /// transfer status that came with it; for the coins in `symbols` only (a board has
    /// hundreds, the rules name a few).
    package init(premium result: PremiumService.Result, symbols: Set<String>) {
        self.init()
        for quote in result.quotes where symbols.contains(quote.market.base) { record(quote) }
        for row in result.board?.rows ?? [] where symbols.contains(row.base) {
            for venue in row.venues {
                if let premium = venue.trustedPremiumPercent(on: .fx) {
                    record(premium, field: .premium, exchange: venue.exchange, symbol: row.base)
                }
                if let premium = venue.trustedPremiumPercent(on: .usdt) {
                    record(premium, field: .usdtPremium, exchange: venue.exchange, symbol: row.base)
                }
            }
        }
        record(transfers: result.transfers.rows.filter { symbols.contains($0.coin) })
    }

    private mutating func record(_ quote: Quote) {
        record(quote.last, field: .last, exchange: quote.exchange, symbol: quote.market.base)
        if let change = quote.changePercent {
            record(change, field: .change, exchange: quote.exchange, symbol: quote.market.base)
        }
    }
}

extension AlertObservations {
    /// The readings of one `agg record` tick: each price's last, and with `--premium` each local
    /// venue's premiums on both bases (`usd` and `usdt`), for the coins in `symbols` only.
    package init(recorded tick: RecordedTick, symbols: Set<String>) {
        self.init()
        for price in tick.prices where symbols.contains(price.market.base) {
            record(price.last, field: .last, exchange: price.exchange, symbol: price.market.base)
        }
        for premium in tick.premiums where symbols.contains(premium.symbol) {
            let field: AlertRule.Field? =
                switch premium.basis {
                case "usd": .premium
                case "usdt": .usdtPremium
                default: nil
                }
            guard let field else { continue }
            record(premium.percent, field: field, exchange: premium.exchange, symbol: premium.symbol)
        }
    }
}
