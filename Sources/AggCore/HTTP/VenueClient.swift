import AggJSON
import FoundationEssentials

/// Sends an adapter's requests and turns every way they can fail into an `AggError` that names
/// the venue: transport failures, HTTP statuses, the venue's own error envelope, and bodies that
/// are not JSON.
public struct VenueClient: Sendable {
    /// The adapter id, used in every error.
    public let venue: String
    public let http: any HTTPClient

    public init(venue: String, http: any HTTPClient) {
        self.venue = venue
        self.http = http
    }

    /// GETs `url` and parses the body as JSON.
    ///
    /// `venueError` inspects the parsed body (whatever the HTTP status, since venues send errors
    /// with 200) and returns the venue's error when the envelope says so. It runs before the
    /// status is judged, so a 404 with a venue error body reports the venue's code and message;
    /// but a 429 or 418 is a rate limit whatever the body says (so that callers can back off),
    /// and a 451 a restricted location.
    public func getJSON(
        _ url: String,
        headers: [HTTPHeader] = [],
        venueError: (JSONCursor, HTTPResponse) -> AggError?
    ) async throws(AggError) -> (json: JSONCursor, response: HTTPResponse) {
        let response = try await send(HTTPRequest(url: url, headers: headers))
        if response.status == 451 { throw .locationRestricted(venue: venue, url: url) }

        let parsed: Result<JSONValue, JSONSyntaxError>
        do throws(JSONSyntaxError) {
            parsed = .success(try JSONParser.parse(response.body))
        } catch {
            parsed = .failure(error)
        }
        var error: AggError?
        if case .success(let value) = parsed { error = venueError(JSONCursor(value), response) }
        if response.status == 429 || response.status == 418 {
            let wait = RetryAfter.seconds(response.header("Retry-After"), now: Date())
            throw .rateLimited(venue: venue, retryAfterSeconds: wait.map { Int($0.rounded(.up)) })
        }
        if let error { throw error }
        guard response.isSuccess else { throw .http(venue: venue, status: response.status, url: url) }
        switch parsed {
        case .success(let value):
            return (JSONCursor(value), response)
        case .failure(let error):
            throw .decoding(
                venue: venue, path: "$",
                detail: "the body is not JSON (\(error.description))\(Self.preview(response.body))")
        }
    }

    /// Sends `request`, mapping transport failures to errors of this venue.
    public func send(_ request: HTTPRequest) async throws(AggError) -> HTTPResponse {
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
    public func map(_ error: TransportError) -> AggError {
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

/// Percent-encoding for the few user-derived values that go into query strings.
public enum URLText {
    /// `text` with every byte outside `A-Z a-z 0-9 - . _ ~` percent-encoded (RFC 3986 unreserved).
    public static func encode(_ text: String) -> String {
        var output = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                output.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                output += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return output
    }

    /// `text` with `%XX` sequences decoded and `+` read as a space (form encoding); malformed
    /// sequences and invalid UTF-8 are kept as they are.
    public static func decode(_ text: String) -> String {
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8)[...]
        while let byte = iterator.popFirst() {
            if byte == UInt8(ascii: "%"), iterator.count >= 2,
                let high = hexValue(iterator[iterator.startIndex]),
                let low = hexValue(iterator[iterator.startIndex + 1])
            {
                bytes.append(high << 4 | low)
                iterator = iterator.dropFirst(2)
            } else {
                bytes.append(byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
            }
        }
        return String(validating: bytes, as: UTF8.self) ?? text
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
