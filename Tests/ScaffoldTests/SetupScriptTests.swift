import Foundation
import Testing

/// `Tools/setup.sh`, which both README commands run first on a fresh machine.
@Suite("Set-up of the Debian packages")
struct SetupScriptTests {
    @Test("installed packages: nothing to do, nothing printed, exit 0")
    func installed() async throws {
        let run = try await runScript("setup.sh", [], environment: ["AGG_SETUP_PACKAGES": "bash coreutils"])
        #expect(run.status == 0)
        #expect(run.output == "")
    }

    @Test("a missing package without root or sudo: the exact command to run, exit 69")
    func missingWithoutPrivilege() async throws {
        let run = try await runScript(
            "setup.sh", [],
            environment: ["AGG_SETUP_PACKAGES": "bash agg-no-such-package", "AGG_SETUP_PRIVILEGE": "none"])
        #expect(run.status == 69)
        #expect(
            run.output
                == "agg setup: missing Debian packages: agg-no-such-package; as root, run: "
                + "apt-get update && apt-get install -y agg-no-such-package\n")
    }

    @Test("--browser installs the browser tests' packages, and only --browser does: building pulls no browser")
    func browserOnlyWhenAsked() async throws {
        let environment = [
            "AGG_SETUP_PACKAGES": "bash", "AGG_SETUP_BROWSER_PACKAGES": "bash agg-no-such-browser",
            "AGG_SETUP_PRIVILEGE": "none",
        ]
        let build = try await runScript("setup.sh", [], environment: environment)
        #expect(build.status == 0)
        #expect(build.output == "")
        let browser = try await runScript("setup.sh", ["--browser"], environment: environment)
        #expect(browser.status == 69)
        #expect(
            browser.output
                == "agg setup: missing Debian packages: agg-no-such-browser; as root, run: "
                + "apt-get update && apt-get install -y agg-no-such-browser\n")
    }

    @Test("an install that fails says what to run, exit 69")
    func failedInstall() async throws {
        // `sudo` here is a stand-in on PATH that always fails, so nothing is installed.
        let bin = FileManager.default.temporaryDirectory.appendingPathComponent("agg-setup-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: bin) }
        let sudo = bin.appendingPathComponent("sudo")
        try "#!/bin/sh\necho \"sudo: refused $*\" >&2\nexit 1\n".write(to: sudo, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: sudo.path)
        let run = try await runScript(
            "setup.sh", [],
            environment: [
                "AGG_SETUP_PACKAGES": "agg-no-such-package", "AGG_SETUP_PRIVILEGE": "sudo",
                "PATH": bin.path + ":/usr/bin:/bin",
            ])
        #expect(run.status == 69)
        #expect(
            run.output
                == "agg setup: installing agg-no-such-package\nsudo: refused apt-get update -qq\n"
                + "agg setup: could not install agg-no-such-package; as root, run: "
                + "apt-get update && apt-get install -y agg-no-such-package\n")
    }
}

/// Rules the source tree keeps, checked on every file.
@Suite("Source rules")
struct SourceRuleTests {
    /// Swift 6.3.1 -O miscompiles task-group children that return tuples built across an `await`
    /// (see Sources/AggCore/Support/Concurrently.swift). Every fan-out therefore goes through
    /// `concurrentMap`/`concurrentResults`; a task group anywhere else is flagged here.
    @Test("task groups live only in Concurrently.swift and the refresh loop's interrupt race")
    func taskGroupsInOnePlace() throws {
        let allowed: Set<String> = [
            "Sources/AggCore/Support/Concurrently.swift",
            // Races the refresh loop (agg watch) against Ctrl-C; its children return an enum built
            // after the await.
            "Sources/AggServices/Support/RefreshLoop.swift",
            // agg-bench's fan-out section: its children return a Quote, not a tuple.
            "Sources/agg-bench/FanOutSection.swift",
            // A stream connection's reader, writer and watchdog, ended together by the first
            // fault: its children return Void.
            "Sources/AggCore/Stream/StreamSession.swift",
            // A --notify outbox's drain racing its deadline: its children return Bool.
            "Sources/AggServices/Features/Notify/NotifyOutbox.swift",
        ]
        var offenders: [String] = []
        for folder in ["Sources", "Plugins", "Tools"] {
            let base = root.appendingPathComponent(folder)
            guard let files = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil) else {
                continue
            }
            for case let file as URL in files where ["swift", "sh"].contains(file.pathExtension) {
                let relative = String(file.path.dropFirst(root.path.count + 1))
                let text = try String(contentsOf: file, encoding: .utf8)
                if text.contains("TaskGroup(of:") && !allowed.contains(relative) { offenders.append(relative) }
            }
        }
        #expect(offenders == [])
    }
}
