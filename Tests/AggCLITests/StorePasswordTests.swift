import Foundation
import Testing

@testable import AggCLI

/// Issue 20: `--store postgres://user:secret@...` shows the password to every user of the machine
/// (`ps`). agg warns, in one line that never shows the password; PGPASSWORD, ~/.pgpass and the
/// config file are the documented ways.
@Suite("a password in --store")
struct StorePasswordTests {
    /// Nothing listens on port 1: the connection is refused at once.
    static let server = "127.0.0.1:1/agg"

    @Test(
        "one warning line, before the store's error; the password is never printed",
        arguments: [
            "postgres://agg:s3cret-pw@\(server)", "postgresql://agg:s3cret%2Dpw@\(server)",
            "postgres://agg@\(server)?password=s3cret-pw",
        ])
    func warned(url: String) async {
        let run = await runCLI(["history", "BTC", "--store", url])
        #expect(run.status == 70)
        #expect(run.errorLines.count == 2)
        #expect(
            run.errorLines.first
                == "agg: warning: --store holds a password, which every user of this machine can read (ps); "
                + "give it in PGPASSWORD, ~/.pgpass or the config file's store instead")
        #expect(!run.error.contains("s3cret"))
        #expect(run.output == "")
    }

    @Test("no password, no warning")
    func notWarned() async {
        let run = await runCLI(["history", "BTC", "--store", "postgres://agg@\(Self.server)"])
        #expect(run.status == 70)
        #expect(run.errorLines.count == 1)
        #expect(!run.error.contains("warning"))
    }
}
