import AggCore

/// A venue that answers every request with one status, headers and body, and what an adapter
/// asked through it throws: how every adapter's error tests meet a venue's error answer.
public struct ScriptedFailure: Sendable {
    /// The status of every answer.
    public var status: Int
    /// The headers of every answer.
    public var headers: [HTTPHeader]
    /// The body of every answer.
    public var body: [UInt8]

    /// A venue answering every request with `status`, `headers` and `body`.
    public init(status: Int = 200, headers: [HTTPHeader] = [], body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// What `ask` throws given a client that answers as this venue does; `nil` when it answers
    /// instead (or throws something that is not an `AggError`, which no adapter may).
    public func error<Value>(_ ask: (any HTTPClient) async throws -> Value) async -> AggError? {
        let (status, headers, body) = (status, headers, body)
        let client = ScriptedHTTPClient { request in
            HTTPResponse(status: status, headers: headers, body: body, url: request.url)
        }
        do {
            _ = try await ask(client)
            return nil
        } catch {
            return error as? AggError
        }
    }
}

extension AdapterRegistration {
    /// The venue's adapter at its default base URL, reaching it through `client`.
    public func adapter(_ client: any HTTPClient) -> any VenueAdapter {
        make(AdapterEnvironment(baseURL: descriptor.defaultBaseURL, http: client))
    }
}
