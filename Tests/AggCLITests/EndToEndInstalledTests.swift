import AggCore
import AggDataVenues
import AggFixtures
import AggTestKit
import Foundation
import Testing

/// `agg` as installed: a copy of the built binary in `<prefix>/bin`, the recordings in
/// `<prefix>/share/agg/Fixtures` and the venue files in `<prefix>/share/agg/Venues`, run by name
/// through `PATH` from another folder.
@Suite("agg installed: it finds its recordings and its venue files")
struct EndToEndInstalledTests {
    /// When the installed copy's Bithumb recordings say they were made: different from the
    /// checkout's, so the output shows which folder was read.
    static let marker = "2030-01-02T03:04:05Z"

    /// A temporary prefix with `bin/agg` and, when `withFixtures`, `share/agg/Fixtures` (a copy
    /// of the checkout's, with Bithumb's recording time set to `marker`).
    func install(withFixtures: Bool = true) throws -> URL {
        let prefix = try temporaryDirectory().appendingPathComponent("prefix")
        let bin = prefix.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        try Self.place(AggBinary.url, at: bin.appendingPathComponent("agg"))
        if withFixtures {
            let fixtures = prefix.appendingPathComponent("share/agg/Fixtures")
            try FileManager.default.createDirectory(
                at: fixtures.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: Fixtures.directory, to: fixtures)
            let routes = fixtures.appendingPathComponent("bithumb/routes.json")
            let text = try String(contentsOf: routes, encoding: .utf8)
            let marked = text.replacingOccurrences(of: "2024-08-08T08:12:15Z", with: Self.marker)
            #expect(marked != text)
            try marked.write(to: routes, atomically: true, encoding: .utf8)
        }
        return prefix
    }

    /// Puts the built binary at `destination` as a hard link. A copy would hold the new file open
    /// for writing while other tests start processes; a child forked in that moment inherits the
    /// descriptor, and running the copy then fails with ETXTBSY (`env` exits 126). A link opens
    /// nothing; only across filesystems does it fall back to a copy, and `runByName` retries a busy one.
    static func place(_ binary: URL, at destination: URL) throws {
        do {
            try FileManager.default.linkItem(at: binary, to: destination)
        } catch {
            try FileManager.default.copyItem(at: binary, to: destination)
        }
    }

    /// Runs `agg` by name, with `PATH` starting at `bin`, from a folder that holds nothing.
    func runByName(_ arguments: [String], bin: URL, environment: [String: String] = [:]) async throws
        -> AggBinary.Run
    {
        var environment = environment
        environment["PATH"] = bin.path + ":/usr/bin:/bin"
        environment["AGG_HOME"] = try temporaryDirectory().appendingPathComponent("home").path
        var run = try await AggBinary.run(arguments, environment: environment, executable: "agg")
        // A copied binary may still be held open by a child forked mid-copy: a few retries.
        for _ in 0..<5 where run.status == 126 && run.error.contains("Text file busy") {
            try await Task.sleep(for: .milliseconds(200))
            run = try await AggBinary.run(arguments, environment: environment, executable: "agg")
        }
        return run
    }

    @Test("run by name through PATH, it reads <prefix>/share/agg/Fixtures")
    func byName() async throws {
        let prefix = try install()
        let run = try await runByName(
            ["quote", "BTC", "-e", "bithumb", "--offline", "-f", "csv"], bin: prefix.appendingPathComponent("bin"))
        #expect(run.status == 0)
        #expect(
            run.errorLines == [
                "agg: offline: bithumb answers from a recorded snapshot from \(Self.marker), with some sample data"
            ])
        #expect(run.output.contains(",80630000,"))
    }

    @Test("through a symbolic link elsewhere on PATH, it still reads the prefix of the real file")
    func throughSymlink() async throws {
        let prefix = try install()
        let links = try temporaryDirectory().appendingPathComponent("links")
        try FileManager.default.createDirectory(at: links, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            at: links.appendingPathComponent("agg"), withDestinationURL: prefix.appendingPathComponent("bin/agg"))
        let run = try await runByName(["quote", "BTC", "-e", "bithumb", "--offline", "-f", "csv"], bin: links)
        #expect(run.status == 0)
        #expect(
            run.errorLines == [
                "agg: offline: bithumb answers from a recorded snapshot from \(Self.marker), with some sample data"
            ])
    }

    @Test("run by name through PATH, it reads its venue files from <prefix>/share/agg/Venues")
    func venueFilesByName() async throws {
        let prefix = try install(withFixtures: false)
        let venues = prefix.appendingPathComponent("share/agg/Venues")
        try FileManager.default.createDirectory(at: venues, withIntermediateDirectories: true)
        // The installed copy of GOPAX's file under another name, so the output shows which was read.
        let text = try String(
            contentsOf: DataVenueDirectory.checkout.appendingPathComponent("gopax.json"), encoding: .utf8)
        let renamed = text.replacingOccurrences(of: #""name": "GOPAX""#, with: #""name": "GOPAX (installed)""#)
        #expect(renamed != text)
        try renamed.write(to: venues.appendingPathComponent("gopax.json"), atomically: true, encoding: .utf8)
        let run = try await runByName(["exchanges", "-f", "csv"], bin: prefix.appendingPathComponent("bin"))
        #expect(run.status == 0)
        let gopax = run.output.split(separator: "\n").filter { $0.hasPrefix("gopax,") }
        #expect(gopax.count == 1)
        #expect(gopax.first?.hasPrefix("gopax,GOPAX (installed),KR,") == true, "\(gopax)")
        #expect(gopax.first?.hasSuffix(",shipped,\(venues.path)/gopax.json") == true, "\(gopax)")
    }

    @Test(
        "a missing recordings folder is one clear line and exit 1, for every command that goes offline",
        arguments: [
            ["quote", "BTC", "-e", "bithumb", "--offline"], ["compare", "BTC", "--offline"],
            ["rates", "--offline"], ["search", "ETH", "--offline"], ["candles", "BTC", "-e", "bithumb", "--offline"],
            ["watch", "BTC", "-e", "bithumb", "-c", "1", "--offline"],
        ])
    func missingFolder(arguments: [String]) async throws {
        let missing = try temporaryDirectory().appendingPathComponent("no-such-folder").path
        let run = try await AggBinary.run(
            arguments,
            environment: [
                "AGG_FIXTURES": missing,
                "AGG_HOME": try temporaryDirectory().appendingPathComponent("home").path,
            ])
        #expect(run.status == 1)
        #expect(run.output == "")
        #expect(
            run.errorLines == [
                "agg: offline data: AGG_FIXTURES names \(missing), which is not a folder of fixture answers"
            ])
    }
}

@Suite("Where --offline looks for its recordings")
struct FixtureDirectoryTests {
    @Test("AGG_FIXTURES first, then share/agg/Fixtures beside the executable, then the checkout")
    func order() throws {
        let prefix = try temporaryDirectory()
        let installed = prefix.appendingPathComponent("share/agg/Fixtures")
        try FileManager.default.createDirectory(at: installed, withIntermediateDirectories: true)
        let executable = prefix.appendingPathComponent("bin/agg").path
        let checkout = URL(fileURLWithPath: "/nonexistent/checkout/Fixtures")
        #expect(
            FixtureDirectory.locate(environment: ["AGG_FIXTURES": "/x/f"], executable: executable, checkout: checkout)
                .path == "/x/f")
        #expect(
            FixtureDirectory.locate(environment: [:], executable: executable, checkout: checkout).path
                == installed.path)
        #expect(FixtureDirectory.problem(environment: [:], executable: executable, checkout: checkout) == nil)
        #expect(
            FixtureDirectory.locate(environment: [:], executable: "/elsewhere/bin/agg", checkout: checkout) == checkout)
    }

    @Test("nothing anywhere: one line naming where it looked")
    func nowhere() {
        let checkout = URL(fileURLWithPath: "/nonexistent/checkout/Fixtures")
        #expect(
            FixtureDirectory.problem(environment: [:], executable: "/opt/agg/bin/agg", checkout: checkout)
                == "no fixture answers in /opt/agg/share/agg/Fixtures (beside the executable) or "
                + "/nonexistent/checkout/Fixtures; set AGG_FIXTURES to a folder of them")
        #expect(
            FixtureDirectory.problem(environment: ["AGG_FIXTURES": "/nope"], executable: nil, checkout: checkout)
                == "AGG_FIXTURES names /nope, which is not a folder of fixture answers")
    }

    @Test("the executable's own path comes from /proc/self/exe, not argv[0]")
    func executablePath() throws {
        let path = try #require(RunningExecutable.path())
        #expect(path.hasPrefix("/"))
        #expect(path == (try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")))
    }
}
