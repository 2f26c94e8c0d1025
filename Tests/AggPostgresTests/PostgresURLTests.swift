import AggCore
import Testing

@testable import AggPostgres

@Suite("PostgreSQL store URLs")
struct PostgresURLTests {
    @Test(
        "postgres:// and postgresql:// URLs are passed to libpq as given, and shown without their password",
        arguments: [
            ("postgres://agg@db.example:5432/agg", "postgres://agg@db.example:5432/agg"),
            ("postgresql://agg:s3cret@127.0.0.1:5433/history", "postgresql://agg:***@127.0.0.1:5433/history"),
            ("postgres://agg:p%40ss@h/db?sslmode=require", "postgres://agg:***@h/db?sslmode=require"),
            ("postgres://h/db?user=agg&password=hunter2", "postgres://h/db?user=agg&password=***"),
            ("postgres://", "postgres://"),
        ])
    func accepted(text: String, shown: String) throws {
        let url = try PostgresURL(text)
        #expect(url.text == text)
        #expect(url.description == shown)
    }

    @Test("a percent-encoded password is removed from messages in both its forms")
    func encodedPassword() throws {
        let url = try PostgresURL("postgres://agg:p%40ss@h/db")
        #expect(url.redacting("bad password p@ss or p%40ss") == "bad password *** or ***")
    }

    @Test(
        "other schemes and URLs with spaces or control characters are usage errors",
        arguments: [
            (
                "mysql://agg@h/db",
                "a PostgreSQL store URL starts with postgres:// or postgresql://, as in postgres://agg@127.0.0.1:5432/agg"
            ),
            (
                "POSTGRES://agg@h/db",
                "a PostgreSQL store URL starts with postgres:// or postgresql://, as in postgres://agg@127.0.0.1:5432/agg"
            ),
            (
                "postgres://agg:pw@h/my db",
                "the store URL postgres://agg:***@h/my db holds spaces or control characters; percent-encode them"
            ),
            (
                "postgres://agg@h/db\n",
                "the store URL postgres://agg@h/db\n holds spaces or control characters; percent-encode them"
            ),
        ])
    func refused(text: String, message: String) {
        #expect(throws: AggError.usage(message)) { try PostgresURL(text) }
    }

    @Test("a server that cannot be reached is one store error naming it without the password")
    func unreachable() async throws {
        // Port 1 on loopback: nothing listens there, so the connection is refused at once.
        let url = try PostgresURL("postgres://agg:topsecret@127.0.0.1:1/agg?connect_timeout=2")
        await #expect {
            _ = try await PostgresHistoryStore.open(url)
        } throws: { error in
            guard case AggError.store(let text) = error else { return false }
            return text.hasPrefix(
                "PostgreSQL postgres://agg:***@127.0.0.1:1/agg?connect_timeout=2: connection to server at")
                && text.contains("Connection refused") && !text.contains("topsecret") && !text.contains("\n")
        }
    }
}
