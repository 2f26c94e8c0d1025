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

/// What one batch of markets gets from a venue that fails every request.
public struct FailingBatch: Sendable {
    /// The URLs the adapter sent, in order.
    public var urls: [String]
    /// Each distinct error the markets failed with, in the order the markets were asked.
    public var failures: [AggError]
    /// The markets that got no failure (a success or no result at all).
    public var unfailed: [Market]
}

extension AdapterTestBed {
    /// Asks for `count` made-up markets (`C1`, `C2`, ... in the home currency) in one batch of an
    /// adapter whose every request is answered with HTTP 503: how a batch is cut into URLs, and
    /// whether a failed request fails its own markets, with its own URL, and no others.
    public func batchAgainstFailingVenue(markets count: Int) async -> FailingBatch {
        let client = ScriptedHTTPClient(status: 503, body: "busy")
        let markets = (1...count).map { market("C\($0)") }
        let results = await adapter(client).quotes(for: markets)
        var failures: [AggError] = []
        var unfailed: [Market] = []
        for market in markets {
            guard case .failure(let error) = results[market] else {
                unfailed.append(market)
                continue
            }
            if !failures.contains(error) { failures.append(error) }
        }
        return FailingBatch(urls: client.requests.map(\.url), failures: failures, unfailed: unfailed)
    }
}

extension AdapterTestBed {
    /// What `ask` throws when the venue answers every request with `status`, `headers` and
    /// `body`; `nil` when it answers instead (or throws something that is not an `AggError`,
    /// which no adapter may).
    public func error<Value>(
        status: Int = 200, headers: [HTTPHeader] = [], body: [UInt8],
        _ ask: (Adapter) async throws -> Value
    ) async -> AggError? {
        await ScriptedFailure(status: status, headers: headers, body: body).error { try await ask(adapter($0)) }
    }

    /// What `ask` throws when the venue answers every request with `status`, `headers` and the
    /// text `body`; `nil` when it answers instead.
    public func error<Value>(
        status: Int = 200, headers: [HTTPHeader] = [], body: String,
        _ ask: (Adapter) async throws -> Value
    ) async -> AggError? {
        await error(status: status, headers: headers, body: Array(body.utf8), ask)
    }

    /// What `ask` throws when the venue answers every request with `status`, `headers` and the
    /// recorded file `Fixtures/<path>`; `nil` when it answers instead.
    public func error<Value>(
        status: Int = 200, headers: [HTTPHeader] = [], fixture path: String,
        _ ask: (Adapter) async throws -> Value
    ) async throws -> AggError? {
        await error(status: status, headers: headers, body: try Fixtures.bytes(path), ask)
    }
}
