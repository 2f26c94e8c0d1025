import AggJSON
import FoundationEssentials

/// One venue's way in: sends an adapter's requests under the venue's base URL, reads the venue's
/// envelope, and turns every way a request can fail into an `AggError` naming the venue.
///
/// Everything an adapter would otherwise repeat lives here: transport failures and HTTP statuses,
/// the venue's error envelope, bodies that are not JSON, JSON decoding failures (reported with
/// their path), and, for a request about one market, the venue's "not listed" codes
/// (`AdapterDescriptor.notListedCodes`) turned into `AggError.notListed` for that market. An
/// adapter is left with its routes and pure decoding functions:
///
/// ```swift
/// try await client.get(APIRouter.ticker(market), for: market) { json throws(JSONDecodingError) in
///     try BithumbDecoding.quote(json, market: market)
/// }
/// ```
public struct VenueClient: Sendable {
    /// The venue, as its adapter describes it.
    public let descriptor: AdapterDescriptor
    /// The base URL in use, without a trailing slash.
    public let baseURL: String
    public let http: any HTTPClient
    public let envelope: ResponseEnvelope
    /// The environment's clock, which bounds the venue's times (`ValueBounds`).
    public let now: @Sendable () -> Timestamp

    public init(_ descriptor: AdapterDescriptor, environment: AdapterEnvironment, envelope: ResponseEnvelope) {
        self.descriptor = descriptor
        self.baseURL = environment.baseURL
        self.http = environment.http
        self.envelope = envelope
        self.now = environment.now
    }

    /// The venue id, used in every error.
    public var venue: String { descriptor.id }

    /// `route`'s answer, decoded from its payload by `decode`.
    public func get<T>(_ route: some VenueRoute, decode: (JSONCursor) throws(JSONDecodingError) -> T)
        async throws(AggError) -> T
    {
        let payload = try await payload(of: route)
        return try self.decode { () throws(JSONDecodingError) in try decode(payload) }
    }

    /// `route`'s answer about `market`, decoded from its payload by `decode`.
    ///
    /// A market quoted in a currency the venue does not serve is not listed, without a request;
    /// the venue's own not-found answer is `notListed` for `market`, with its code and message.
    public func get<T>(
        _ route: some VenueRoute, for market: Market, decode: (JSONCursor) throws(JSONDecodingError) -> T
    ) async throws(AggError) -> T {
        try requireServed(market)
        let payload: JSONCursor
        do throws(AggError) {
            payload = try await self.payload(of: route)
        } catch {
            throw notListed(error, market: market)
        }
        return try self.decode { () throws(JSONDecodingError) in try decode(payload) }
    }

    /// `route`'s answer about `market`, decoded by `decode`, which is told the market (an order
    /// book's answer rarely names it).
    public func get<T>(
        _ route: some VenueRoute, for market: Market, decode: (JSONCursor, Market) throws(JSONDecodingError) -> T
    ) async throws(AggError) -> T {
        try await get(route, for: market) { payload throws(JSONDecodingError) in try decode(payload, market) }
    }

    /// `route`'s answer decoded as `get` decodes it, or `.missing` when the answer says the
    /// venue has no such endpoint (`isMissingEndpoint`), for an adapter that can ask another API
    /// of the same venue then. Every other failure is thrown as `get` throws it.
    public func getUnlessMissing<T>(
        _ route: some VenueRoute, for market: Market?, decode: (JSONCursor) throws(JSONDecodingError) -> T
    ) async throws(AggError) -> EndpointAnswer<T> {
        if let market { try requireServed(market) }
        let url = route.url(baseURL: baseURL)
        let response = try await send(HTTPRequest(url: url))
        let payload: JSONCursor
        do throws(AggError) {
            payload = try self.payload(in: response, url: url)
        } catch {
            if Self.isMissingEndpoint(response) { return .missing(error) }
            throw market.map { notListed(error, market: $0) } ?? error
        }
        return .answered(try self.decode { () throws(JSONDecodingError) in try decode(payload) })
    }

    /// Whether `response` says that there is no such endpoint rather than anything about the
    /// request: an HTML page (what a web server or a proxy sends for a path it does not route,
    /// whatever its status), or a 404 whose body is not JSON. A 404 with a JSON body is the
    /// venue's own answer (an Upbit-shaped API answers an unknown market so) and is not.
    public static func isMissingEndpoint(_ response: HTTPResponse) -> Bool {
        let first = response.body.first { !ASCIIText.isWhitespace($0) }
        if first == UInt8(ascii: "<") { return true }
        return response.status == 404 && first != UInt8(ascii: "{") && first != UInt8(ascii: "[")
    }

    /// The result of `body`, with a JSON decoding failure reported as a decoding error of this
    /// venue (naming the JSON path).
    public func decode<T>(_ body: () throws(JSONDecodingError) -> T) throws(AggError) -> T {
        do throws(JSONDecodingError) {
            return try body()
        } catch {
            throw .decoding(error, venue: venue)
        }
    }

    /// Throws `notListed` for `market` when the venue has no markets in its quote currency.
    public func requireServed(_ market: Market) throws(AggError) {
        if let error = descriptor.unserved(market) { throw error }
    }

    /// `error` as "`market` is not listed" when it is the venue's own not-found answer
    /// (`AdapterDescriptor.notListed(_:market:)`); any other error unchanged.
    public func notListed(_ error: AggError, market: Market) -> AggError {
        descriptor.notListed(error, market: market)
    }

    /// The payload of `route`'s answer: the answer parsed, checked against the envelope, and
    /// unwrapped.
    ///
    /// The envelope's error is read before the status is judged, so a 404 with a venue error body
    /// reports the venue's code and message; but a 429 or 418 is a rate limit whatever the body
    /// says (so that callers can back off), as is an error carrying one of the venue's
    /// `rateLimitCodes`, and a 451 a restricted location.
    private func payload(of route: some VenueRoute) async throws(AggError) -> JSONCursor {
        let url = route.url(baseURL: baseURL)
        return try payload(in: try await send(HTTPRequest(url: url)), url: url)
    }

    /// The payload of `response`, the answer from `url`; see `payload(of:)`.
    private func payload(in response: HTTPResponse, url: String) throws(AggError) -> JSONCursor {
        if response.status == 451 { throw .locationRestricted(venue: venue, url: url) }

        let parsed: Result<JSONValue, JSONSyntaxError>
        do throws(JSONSyntaxError) {
            parsed = .success(try JSONParser.parse(response.body))
        } catch {
            parsed = .failure(error)
        }
        var venueError: VenueErrorFields?
        if case .success(let value) = parsed { venueError = envelope.error(JSONCursor(value), response) }
        if response.status == 429 || response.status == 418 {
            let wait = RetryAfter.seconds(response.header("Retry-After"), now: Date())
            throw .rateLimited(venue: venue, retryAfterSeconds: wait.map { Int($0.rounded(.up)) })
        }
        if let venueError {
            if descriptor.rateLimitCodes.contains(venueError.code) {
                throw .rateLimited(venue: venue, retryAfterSeconds: nil)
            }
            throw .venue(venue: venue, code: venueError.code, message: venueError.message)
        }
        guard response.isSuccess else { throw .http(venue: venue, status: response.status, url: url) }
        switch parsed {
        case .success(let value):
            let json = JSONCursor(value)
            return try decode { () throws(JSONDecodingError) in try envelope.payload(json) }
        case .failure(let error):
            throw .decoding(
                venue: venue, path: "$",
                detail: "the body is not JSON (\(error.description))\(Self.preview(response.body))")
        }
    }

    /// Sends `request`, mapping transport failures to errors of this venue.
    private func send(_ request: HTTPRequest) async throws(AggError) -> HTTPResponse {
        do {
            return try await http.send(request)
        } catch let error as TransportError {
            throw map(error)
        } catch is CancellationError {
            throw .connection(venue: venue, url: request.url, detail: "cancelled")
        } catch let error as AggError {
            throw error
        } catch {
            throw .connection(venue: venue, url: request.url, detail: String(describing: error))
        }
    }

    /// The `AggError` for a transport failure of this venue.
    private func map(_ error: TransportError) -> AggError {
        switch error {
        case .timeout(let url, let seconds): .timeout(venue: venue, url: url, seconds: seconds)
        case .connection(let url, let detail): .connection(venue: venue, url: url, detail: detail)
        case .malformedResponse(let url, let detail):
            .connection(venue: venue, url: url, detail: detail)
        case .responseTooLarge(let url, let limit): .responseTooLarge(venue: venue, url: url, limit: limit)
        case .invalidURL(let url): .connection(venue: venue, url: url, detail: "invalid URL")
        }
    }

    /// The start of a body that is not JSON, so that an HTML error page is recognisable.
    private static func preview(_ body: [UInt8]) -> String {
        guard !body.isEmpty else { return "; the body is empty" }
        let text = String(decoding: body.prefix(60), as: UTF8.self)
            .replacing("\n", with: " ")
            .replacing("\r", with: " ")
        return "; it starts with '\(text)'"
    }
}

/// An answer of an endpoint that may not exist: its decoded value, or the error its absence
/// would have been (an HTTP 404 or an HTML page), for the caller to report if no other API
/// answers.
public enum EndpointAnswer<Value> {
    case answered(Value)
    case missing(AggError)
}

extension EndpointAnswer: Sendable where Value: Sendable {}

extension EndpointAnswer {
    /// The answer with its value transformed; a missing endpoint stays missing.
    public func map<New>(_ transform: (Value) -> New) -> EndpointAnswer<New> {
        switch self {
        case .answered(let value): .answered(transform(value))
        case .missing(let error): .missing(error)
        }
    }
}
