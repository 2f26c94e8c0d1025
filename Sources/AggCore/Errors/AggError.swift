import AggJSON

/// Everything that can go wrong in agg, each case with the context a user needs to act on it.
///
/// User-input cases (`invalidSymbol`, `invalidCurrency`, `unknownExchange`, `usage`) map to exit
/// code 64; the rest describe a source that failed and map to exit code 1.
public enum AggError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A coin or market symbol typed by the user is not valid.
    case invalidSymbol(String, reason: String)
    /// A currency code typed by the user is not three letters A-Z.
    case invalidCurrency(String)
    /// No adapter has this id.
    case unknownExchange(String, known: [String])
    /// A command line that cannot be understood.
    case usage(String)
    /// The venue cannot do what was asked.
    case unsupported(venue: String, capability: Capability)
    /// The venue answered with its own error code and message, kept verbatim.
    case venue(venue: String, code: String, message: String)
    /// The venue says it does not list the market.
    case notListed(venue: String, market: Market, code: String, message: String)
    /// A non-2xx answer that carried no venue error.
    case http(venue: String, status: Int, url: String)
    /// The venue refuses the caller's location (HTTP 451).
    case locationRestricted(venue: String, url: String)
    /// The venue asks us to slow down (HTTP 429/418 or its own code).
    case rateLimited(venue: String, retryAfterSeconds: Int?)
    /// No complete answer within the time allowed.
    case timeout(venue: String, url: String, seconds: Double)
    /// The connection could not be made or broke off.
    case connection(venue: String, url: String, detail: String)
    /// The answer is not what the venue's API documents.
    case decoding(venue: String, path: String, detail: String)
    /// The answer's body is larger than agg accepts (`limit` bytes); not retried.
    case responseTooLarge(venue: String, url: String, limit: Int)
    /// The local database failed.
    case store(String)
    /// Recorded responses for `--offline` are missing.
    case offline(String)
    /// No FX rate could be used: none answered, or the one to use is too old.
    case fxUnavailable(String)

    /// The venue this error came from, if any.
    public var venue: String? {
        switch self {
        case .unsupported(let venue, _), .venue(let venue, _, _), .notListed(let venue, _, _, _),
            .http(let venue, _, _), .locationRestricted(let venue, _), .rateLimited(let venue, _),
            .timeout(let venue, _, _), .connection(let venue, _, _), .decoding(let venue, _, _),
            .responseTooLarge(let venue, _, _):
            venue
        default: nil
        }
    }

    /// A stable machine-readable kind, used as `kind` in JSON output.
    public var kind: String {
        switch self {
        case .invalidSymbol: "invalidSymbol"
        case .invalidCurrency: "invalidCurrency"
        case .unknownExchange: "unknownExchange"
        case .usage: "usage"
        case .unsupported: "unsupported"
        case .venue: "venue"
        case .notListed: "notListed"
        case .http: "http"
        case .locationRestricted: "locationRestricted"
        case .rateLimited: "rateLimited"
        case .timeout: "timeout"
        case .connection: "connection"
        case .decoding: "decoding"
        case .responseTooLarge: "responseTooLarge"
        case .store: "store"
        case .offline: "offline"
        case .fxUnavailable: "fxUnavailable"
        }
    }

    /// Whether the user's input, not a source, is at fault (exit code 64).
    public var isUsageError: Bool {
        switch self {
        case .invalidSymbol, .invalidCurrency, .unknownExchange, .usage: true
        default: false
        }
    }

    /// The venue's own code (or the HTTP status), for JSON output; `nil` when there is none
    /// (a market simply missing from a venue's list carries no code).
    public var code: String? {
        switch self {
        case .venue(_, let code, _): code
        case .notListed(_, _, let code, _): code.isEmpty ? nil : code
        case .http(_, let status, _): String(status)
        case .locationRestricted: "451"
        case .rateLimited: "429"
        default: nil
        }
    }

    /// The message for JSON output: the venue's own text, verbatim, for venue errors; otherwise
    /// the same as `summary`.
    public var message: String {
        switch self {
        case .venue(_, _, let message): message
        case .notListed(_, let market, _, let message):
            message.isEmpty ? "\(market) is not listed" : message
        default: summary
        }
    }

    /// One line without the venue prefix: "error 5600: 입력값을 확인해주세요. [English: please check
    /// the input]". A known Korean message gets its English gloss after it (see
    /// `VenueMessageGlossary`).
    public var summary: String {
        switch self {
        case .invalidSymbol(let text, let reason): "invalid symbol '\(text)': \(reason)"
        case .invalidCurrency(let text):
            "invalid currency code '\(text)': expected three letters A-Z, such as USD"
        case .unknownExchange(let id, let known):
            "unknown exchange '\(id)'; known: \(known.joined(separator: ", "))"
        case .usage(let text): text
        case .unsupported(let venue, let capability): "\(capability.title) is not supported by \(venue)"
        case .venue(_, let code, let message): "error \(code): \(Self.glossed(message))"
        case .notListed(_, let market, let code, let message):
            "\(market) is " + Self.notListedText(code: code, message: message)
        case .http(_, let status, let url): "HTTP \(status) from \(url)"
        case .locationRestricted:
            "HTTP 451: the venue refuses requests from this location (restricted location)"
        case .rateLimited(let venue, let seconds):
            "rate limited by \(venue)" + (seconds.map { ", retry after \($0) s" } ?? "")
        case .timeout(_, let url, let seconds):
            "no answer within \(formatSeconds(seconds)) s from \(url)"
        case .connection(_, let url, let detail): "connection to \(url) failed: \(detail)"
        case .decoding(_, let path, let detail): "unexpected response at \(path): \(detail)"
        case .responseTooLarge(_, let url, let limit):
            "the answer from \(url) is larger than the limit of \(limit) bytes"
        case .store(let text): "database: \(text)"
        case .offline(let text): "offline data: \(text)"
        case .fxUnavailable(let text): "no usable FX rate: \(text)"
        }
    }

    /// The summary for a line that already names the venue and market: "not listed" rather than
    /// "NOPE/KRW is not listed".
    public var summaryNamingNoMarket: String {
        guard case .notListed(_, _, let code, let message) = self else { return summary }
        return Self.notListedText(code: code, message: message)
    }

    /// "not listed", with the venue's own code and message when it sent any.
    private static func notListedText(code: String, message: String) -> String {
        let message = glossed(message)
        return "not listed" + (message.isEmpty ? "" : code.isEmpty ? " (\(message))" : " (error \(code): \(message))")
    }

    /// A venue's message followed by its English gloss when it is a known Korean one:
    /// "잘못된 코인명입니다. [English: invalid coin name]".
    private static func glossed(_ message: String) -> String {
        VenueMessageGlossary.english(for: message).map { "\(message) [English: \($0)]" } ?? message
    }

    /// One line a user can act on, naming the venue first when there is one.
    ///
    /// Venue messages and transport details are kept verbatim in `message`; their line breaks
    /// become spaces here so that a report stays on one line.
    public var description: String {
        let text = venue.map { "\($0): \(summary)" } ?? summary
        return text.split(whereSeparator: \.isNewline).joined(separator: " ")
    }
}

private func formatSeconds(_ seconds: Double) -> String {
    // `Int(exactly:)` rather than `Int(_:)`, which traps on infinity and on values past Int.max.
    Int(exactly: seconds).map { String($0) } ?? String(seconds)
}

extension AggError {
    /// Wraps a JSON decoding failure as an error of `venue`.
    public static func decoding(_ error: JSONDecodingError, venue: String) -> AggError {
        .decoding(venue: venue, path: error.path, detail: error.reason)
    }
}
