import AggJSON

extension VenueClient {
    /// The result of `body`, with a JSON decoding failure reported as a decoding error of this
    /// venue (naming the JSON path).
    public func decode<T>(_ body: () throws(JSONDecodingError) -> T) throws(AggError) -> T {
        do throws(JSONDecodingError) {
            return try body()
        } catch {
            throw .decoding(error, venue: venue)
        }
    }
}

extension AggError {
    /// This error as "`market` is not listed", keeping the venue's code and message: for an
    /// error the venue's adapter recognises as its own not-found answer (`isNotListed`).
    public func notListed(_ market: Market) -> AggError {
        if case .notListed = self { return self }
        return .notListed(venue: venue ?? "", market: market, code: code ?? "", message: message)
    }
}
