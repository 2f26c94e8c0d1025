import AggCore
import AggPostgres
import Testing

@testable import AggOptions
@testable import AggServices

@Suite("--store: where the history goes")
struct HistoryStoreLocationTests {
    @Test(
        "nothing, sqlite:PATH and a path are SQLite; postgres:// and postgresql:// are PostgreSQL",
        arguments: [
            (nil, "sqlite:(default)"),
            ("sqlite:/var/lib/agg/history.sqlite", "sqlite:/var/lib/agg/history.sqlite"),
            ("history.sqlite", "sqlite:history.sqlite"),
            ("/tmp/a:b.sqlite", "sqlite:/tmp/a:b.sqlite"),
            ("postgres://agg:pw@db:5432/agg", "postgres://agg:***@db:5432/agg"),
            ("postgresql://agg@db/agg", "postgresql://agg@db/agg"),
        ] as [(String?, String)])
    func location(text: String?, shown: String) throws {
        #expect(try HistoryStoreLocation(text).description == shown)
    }

    @Test(
        "an empty value, a bare sqlite: and unknown schemes are usage errors",
        arguments: [
            ("", "--store needs a PostgreSQL URL (postgres://user@host:5432/db) or a SQLite path (sqlite:PATH)"),
            ("sqlite:", "--store needs a PostgreSQL URL (postgres://user@host:5432/db) or a SQLite path (sqlite:PATH)"),
            (
                "mysql://agg@db/agg",
                "--store does not know the scheme 'mysql://'; use postgres://user@host:5432/db or sqlite:PATH"
            ),
        ])
    func refused(text: String, message: String) {
        #expect(throws: AggError.usage(message)) { try HistoryStoreLocation(text) }
    }

    @Test("the SQLite case is opened by the function given, with its path")
    func sqliteThroughTheCaller() async {
        for (text, expected) in [("sqlite:/x/h.sqlite", "/x/h.sqlite"), (nil, "default")] as [(String?, String)] {
            await #expect(throws: AggError.store("SQLite opener called with \(expected)")) {
                _ = try await HistoryStoreLocation(text).open { path throws(AggError) in
                    throw .store("SQLite opener called with \(path ?? "default")")
                }
            }
        }
    }
}

@Suite("config file: store")
struct ConfigurationStoreTests {
    @Test("the config file's store is read and checked like --store")
    func store() throws {
        let bytes = Array(#"{"store":"postgres://agg:pw@db/agg"}"#.utf8)
        let configuration = try ConfigurationLoader.parse(bytes, path: "/c.json", registry: .standard)
        #expect(configuration.store?.description == "postgres://agg:***@db/agg")
        #expect(configuration.warnings.isEmpty)
        #expect(
            throws: ConfigurationError(
                path: "/c.json",
                problem:
                    "$.store: --store does not know the scheme 'mysql://'; use postgres://user@host:5432/db or sqlite:PATH"
            )
        ) {
            try ConfigurationLoader.parse(Array(#"{"store":"mysql://x"}"#.utf8), path: "/c.json", registry: .standard)
        }
    }
}
