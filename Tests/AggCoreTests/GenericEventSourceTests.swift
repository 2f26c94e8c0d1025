import AggCore
import Testing

private let at = Timestamp(secondsSince1970: 1_796_300_000)
private let later = Timestamp(secondsSince1970: 1_796_300_300)

/// A venue with a market list and transfer status and no event source of its own: it gets the
/// generic ones.
private struct ListingVenue: VenueAdapter {
    var listings: BulkAnswer<MarketListing>
    var rows: [TransferStatus]

    let descriptor = AdapterDescriptor(
        id: "listing", displayName: "Listing", country: "ZZ", homeCurrency: "KRW", quoteCurrencies: ["KRW", "BTC"],
        capabilities: [.markets, .transferStatus], requestsPerSecond: 4, defaultBaseURL: "https://listing.invalid")

    func fetchMarkets() async throws(AggError) -> BulkAnswer<MarketListing> { listings }

    func fetchTransferStatus() async throws(AggError) -> [TransferStatus] { rows }
}

private func listing(_ base: String, _ quote: String = "KRW", korean: String? = nil, english: String? = nil)
    -> MarketListing
{
    MarketListing(
        exchange: "listing", market: Market(base: base, quote: quote), venueSymbol: "\(base)_\(quote)",
        koreanName: korean, englishName: english)
}

private func row(_ coin: String, _ network: String?, deposit: TransferState, withdraw: TransferState)
    -> TransferStatus
{
    TransferStatus(exchange: "listing", coin: coin, network: network, deposit: deposit, withdraw: withdraw)
}

@Suite("Generic event sources: the market list and the transfer status of every venue")
struct GenericEventSourceTests {
    @Test(
        "a venue without its own sources gets markets and transfers, every 5 minutes, at most one request at its rate")
    func generic() {
        let sources = ListingVenue(listings: BulkAnswer(values: []), rows: []).descriptor.eventSources
        #expect(
            sources == [
                EventSource(
                    id: "markets", reader: .marketList, interval: .seconds(300), minimumInterval: .milliseconds(250),
                    summary: "the market list (as agg markets reads it)"),
                EventSource(
                    id: "transfers", reader: .transferStatus, interval: .seconds(300),
                    minimumInterval: .milliseconds(250), summary: "the transfer status (as agg status reads it)"),
            ])
        let fx = AdapterDescriptor(
            id: "fx", displayName: "FX", country: "ZZ", homeCurrency: "KRW", quoteCurrencies: [],
            capabilities: [.fxRates], requestsPerSecond: 1, defaultBaseURL: "https://fx.invalid")
        #expect(fx.eventSources == [])
    }

    @Test(
        "the generic sources' minimum interval: one request at the venue's rate, at least 1 ms; 1 s for a rate no descriptor may declare",
        arguments: [
            (4.0, 250), (150, 7), (0.001, 1_000_000), (1000, 1), (5000, 1), (0, 1000), (-1, 1000), (.nan, 1000),
            (.infinity, 1000),
        ])
    func minimumInterval(rate: Double, milliseconds: Int64) {
        let sources = EventSource.generic(capabilities: [.markets, .transferStatus], requestsPerSecond: rate)
        #expect(sources.map(\.minimumInterval) == [.milliseconds(milliseconds), .milliseconds(milliseconds)])
    }

    @Test("markets: one listed fact per coin in any quote, the first listing's names; a skipped entry's coin unread")
    func listed() async throws {
        let skipped = SkippedEntry(
            venue: "listing", entry: "ADA_KRW", market: Market(base: "ADA", quote: "KRW"), path: "$[3].symbol",
            reason: "bad")
        let venue = ListingVenue(
            listings: BulkAnswer(
                values: [
                    listing("BTC", korean: "비트코인", english: "Bitcoin"), listing("ETH", "BTC", english: "Ethereum"),
                    listing("BTC", "BTC", korean: "other"), listing("XRP"),
                ], skipped: [skipped]),
            rows: [])
        let observation = try await venue.events(from: "markets", at: at)
        #expect(
            observation
                == EventObservation(
                    venue: "listing", source: "markets", observedAt: at,
                    facts: [
                        EventFact(condition: .listed, symbol: "BTC", detail: "비트코인 / Bitcoin"),
                        EventFact(condition: .listed, symbol: "ETH", detail: "Ethereum"),
                        EventFact(condition: .listed, symbol: "XRP"),
                    ], skipped: [skipped], unread: ["ADA"]))
        // ADA was listed: its entry damaged is not a delisting; SOL's absence is.
        let transition = EventDiff.transition(
            from: [
                EventFact(condition: .listed, symbol: "ADA"), EventFact(condition: .listed, symbol: "BTC"),
                EventFact(condition: .listed, symbol: "SOL"),
            ], to: observation)
        #expect(
            transition.events == [
                MarketEvent(venue: "listing", kind: .listed, symbol: "ETH", detail: "Ethereum", firstObserved: at),
                MarketEvent(venue: "listing", kind: .delisted, symbol: "SOL", firstObserved: at),
                MarketEvent(venue: "listing", kind: .listed, symbol: "XRP", firstObserved: at),
            ])
        #expect(
            transition.state.map(\.identity.key) == ["listed|ADA||", "listed|BTC||", "listed|ETH||", "listed|XRP||"])
    }

    @Test("transfers: a closed fact per coin, network and direction; unknown is not closed, and its coin is unread")
    func transfers() async throws {
        let rows = [
            row("BTC", "BTC", deposit: .open, withdraw: .closed),
            row("USDT", "TRX", deposit: .closed, withdraw: .closed),
            row("USDT", "ETH", deposit: .open, withdraw: .open),
            row("XRP", nil, deposit: .unknown, withdraw: .open),
        ]
        let observation = try await ListingVenue(listings: BulkAnswer(values: []), rows: rows).events(
            from: "transfers", at: at)
        #expect(
            observation
                == EventObservation(
                    venue: "listing", source: "transfers", observedAt: at,
                    facts: [
                        EventFact(condition: .withdrawClosed, symbol: "BTC", network: "BTC"),
                        EventFact(condition: .depositClosed, symbol: "USDT", network: "TRX"),
                        EventFact(condition: .withdrawClosed, symbol: "USDT", network: "TRX"),
                    ], unread: ["XRP"]))
        // XRP's deposits were closed and are now unknown: no deposit_open. BTC's withdrawals
        // reopening is one.
        let next = [
            row("BTC", "BTC", deposit: .open, withdraw: .open),
            row("USDT", "TRX", deposit: .closed, withdraw: .closed),
            row("XRP", nil, deposit: .unknown, withdraw: .open),
        ]
        let transition = EventDiff.transition(
            from: observation.facts + [EventFact(condition: .depositClosed, symbol: "XRP")],
            to: try await ListingVenue(listings: BulkAnswer(values: []), rows: next).events(
                from: "transfers", at: later))
        #expect(
            transition.events == [
                MarketEvent(venue: "listing", kind: .withdrawOpen, symbol: "BTC", network: "BTC", firstObserved: later)
            ])
        #expect(
            transition.state.map(\.identity.key) == [
                "deposit_closed|USDT|TRX|", "deposit_closed|XRP||", "withdraw_closed|USDT|TRX|",
            ])
    }

    @Test(
        "an unknown source is a usage error; an empty list or status is no observation; the primitive's default is unsupported"
    )
    func unknown() async {
        let venue = ListingVenue(listings: BulkAnswer(values: []), rows: [])
        await #expect(throws: AggError.usage("listing has no event source 'notices'; it has: markets, transfers")) {
            try await venue.events(from: "notices", at: at)
        }
        await #expect(
            throws: AggError.decoding(venue: "listing", path: "$", detail: "the market list names no market")
        ) { try await venue.events(from: "markets", at: at) }
        await #expect(
            throws: AggError.decoding(venue: "listing", path: "$", detail: "the transfer status names no coin")
        ) { try await venue.events(from: "transfers", at: at) }
        await #expect(throws: AggError.unsupported(venue: "listing", capability: .events)) {
            try await venue.fetchEvents(EventSource.marketList(minimumInterval: .seconds(1)), at: at)
        }
    }
}
