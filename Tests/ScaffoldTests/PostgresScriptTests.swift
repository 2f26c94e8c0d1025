import Testing

/// `Tools/postgres.sh`, which starts the throwaway PostgreSQL of the test run (Tools/test starts
/// and stops it; a start and stop cycle runs on every Tools/test run).
@Suite("Tools/postgres.sh")
struct PostgresScriptTests {
    @Test("no command is a usage error (exit 64)")
    func usage() async throws {
        let run = try await runScript("postgres.sh", [])
        #expect(run.status == 64)
        #expect(run.output == "usage: Tools/postgres.sh start | stop DIR\n")
    }

    @Test("stop refuses a folder it did not make, and deletes nothing (exit 64)")
    func stopRefusesOtherFolders() async throws {
        let run = try await runScript("postgres.sh", ["stop", "/etc"])
        #expect(run.status == 64)
        #expect(run.output == "agg postgres: refusing to stop '/etc' (not a folder this script made)\n")
    }
}
