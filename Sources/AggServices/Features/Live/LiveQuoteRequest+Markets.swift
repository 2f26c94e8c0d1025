import AggCore

extension LiveQuoteRequest {
    /// A request for `markets` of each venue (in that order; a venue with none is left out),
    /// polled every `interval` where there is no live stream: `agg serve` follows every market
    /// its first poll saw.
    package init(markets: [(venue: String, markets: [Market])], interval: Double) {
        self.init(
            plan: QuoteService.Plan(
                requests: markets.filter { !$0.markets.isEmpty }.map {
                    QuoteService.VenueRequest(venue: $0.venue, markets: $0.markets)
                }, all: false, quoteCurrency: nil),
            interval: interval, streams: true, announcesPolling: false)
    }
}

extension QuoteService.Outcome {
    /// The fresh quote; `nil` for a failure.
    package var freshQuote: Quote? {
        if case .success(let quote) = result { return quote }
        return nil
    }

    /// Why there is no fresh quote; `nil` for a success.
    package var failure: AggError? {
        if case .failure(let error) = result { return error }
        return nil
    }
}
