import AggCore

/// A PostgreSQL connection URI, `postgres://user[:password]@host[:port]/database[?param=value]`
/// (or `postgresql://`), checked and ready for libpq.
///
/// libpq parses the URI itself (hosts, ports, percent-encoding, `sslmode=` and the other
/// parameters); agg checks only what libpq would misread silently or what must never be shown:
/// the scheme, control characters, and the password, which `description` leaves out.
public struct PostgresURL: Sendable, Equatable, CustomStringConvertible {
    /// The URI as given, for libpq.
    public let text: String
    /// The password written in the URI (percent-decoded) or in its `password=` parameter,
    /// removed from every message.
    let secrets: [String]

    /// The URI schemes libpq accepts.
    public static let schemes = ["postgres://", "postgresql://"]

    /// Whether `text` starts with a PostgreSQL scheme: the way `agg --store` tells a
    /// PostgreSQL URL from a SQLite path.
    public static func isPostgres(_ text: String) -> Bool {
        schemes.contains { text.hasPrefix($0) }
    }

    /// Checks `text`.
    ///
    /// - Throws: `AggError.usage` when the scheme is not `postgres://` or `postgresql://`, or
    ///   the text holds white space or control characters. The message never shows a password.
    public init(_ text: String) throws(AggError) {
        guard let scheme = Self.schemes.first(where: { text.hasPrefix($0) }) else {
            throw .usage(
                "a PostgreSQL store URL starts with postgres:// or postgresql://, as in postgres://agg@127.0.0.1:5432/agg"
            )
        }
        let rest = text.dropFirst(scheme.count)
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        var secrets: [String] = []
        if let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") {
            let password = String(authority[authority.index(after: colon)..<at])
            secrets.append(password)
            if let decoded = URLText.decodeStrictly(password), decoded != password { secrets.append(decoded) }
        }
        if let query = rest.firstIndex(of: "?") {
            for parameter in rest[rest.index(after: query)...].split(separator: "&")
            where parameter.hasPrefix("password=") {
                let password = String(parameter.dropFirst("password=".count))
                secrets.append(password)
                if let decoded = URLText.decodeStrictly(password), decoded != password { secrets.append(decoded) }
            }
        }
        self.text = text
        self.secrets = secrets.filter { !$0.isEmpty }
        guard text.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value != 0x7F }) else {
            throw .usage("the store URL \(description) holds spaces or control characters; percent-encode them")
        }
    }

    /// Whether the URI holds a password (in its authority or a `password=` parameter).
    public var holdsPassword: Bool { !secrets.isEmpty }

    /// The URI without its password: `postgres://agg@db.example:5432/agg`.
    public var description: String { redacting(text) }

    /// `message` with every occurrence of the password replaced by `***`.
    func redacting(_ message: String) -> String {
        var message = message
        for secret in secrets.sorted(by: { $0.count > $1.count }) {
            message = message.replacing(secret, with: "***")
        }
        return message
    }
}
