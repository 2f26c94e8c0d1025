import AggCore
import FoundationEssentials

/// What every compiled adapter's tests start from: the adapter at its venue's real base URL, the
/// venue's recorded answers, and markets in its home currency.
///
/// ```swift
/// private let bed = AdapterTestBed(CoinoneAdapter.self)
/// let quote = try await bed.adapter(try bed.recorded()).quote(for: bed.market("BTC"))
/// ```
public struct AdapterTestBed<Adapter: CompiledAdapter>: Sendable {
    /// The venue's default base URL, which request URLs are checked against.
    public let baseURL: String

    public init(_ type: Adapter.Type) {
        baseURL = Adapter.descriptor.defaultBaseURL
    }

    /// The venue id, which names its folder in `Fixtures/`.
    public var venue: String { Adapter.descriptor.id }

    /// `base` quoted in the venue's home currency.
    public func market(_ base: String) -> Market {
        Market(base: base, quote: Adapter.descriptor.homeCurrency)
    }

    /// A new adapter reaching the venue at `baseURL` through `client`.
    public func adapter(_ client: any HTTPClient) -> Adapter {
        Adapter(environment: AdapterEnvironment(baseURL: baseURL, http: client))
    }

    /// A client answering from the venue's recorded answers and logging every request.
    public func recorded() throws -> ScriptedHTTPClient {
        try Fixtures.recordingClient(venue, baseURL: baseURL)
    }
}

/// The decimal written `text`, exactly; NaN for text that is not a decimal, so that an
/// expectation built from a mistyped literal fails rather than passing by accident.
public func decimal(_ text: String) -> Decimal {
    Decimal(string: text) ?? .nan
}
