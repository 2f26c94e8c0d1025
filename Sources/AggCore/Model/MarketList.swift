/// A venue's market list as far as it could be had: the listings of the requests that answered,
/// and why the others did not.
///
/// A venue that lists its markets in several requests (Bithumb: one ticker list per payment
/// currency) can lose one of them while the rest answer; what answered is still worth showing.
public struct MarketList: Sendable, Equatable {
    /// One request of the list that failed.
    public struct Failure: Sendable, Equatable {
        /// The quote currency whose markets that request would have listed, or `nil` when the
        /// request was for the whole list.
        public var quoteCurrency: String?
        public var error: AggError

        public init(quoteCurrency: String?, error: AggError) {
            self.quoteCurrency = quoteCurrency
            self.error = error
        }
    }

    public var listings: [MarketListing]
    public var failures: [Failure]
    /// The entries of the venue's answers that did not decode (a missing field, a number where a
    /// string is documented, an odd market code): each costs only itself (see `BulkAnswer`).
    public var skipped: [SkippedEntry]

    public init(listings: [MarketListing], failures: [Failure] = [], skipped: [SkippedEntry] = []) {
        self.listings = listings
        self.failures = failures
        self.skipped = skipped
    }
}
