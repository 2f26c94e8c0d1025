import AggCore
import AggStore
import Foundation
import Testing

@testable import AggServices

/// Issue 20: after `kill -9`, the same recorder restarted on the same host waited three intervals
/// for its own dead lease ("held by another recorder"), because its identity was `host:pid`. The
/// identity is now the host and an id kept in the data folder, so a restart reclaims at once.
@Suite("agg record: the recorder's identity")
struct RecorderIdentityTests {
    /// Claims the identity of `folder` once its last holder has let go. In this test process
    /// other tests start programs all the time, and a child forked but not yet running its
    /// program holds a copy of every descriptor, `recorder-id`'s lock included, for a moment
    /// (O_CLOEXEC closes it only at exec): so the claim is asked again, for at most 2 s, while
    /// it names another holder than `holder`. (Under two busy loops a claim once found the lock
    /// still held.)
    static func reclaim(folder: String, pid: Int32, expecting holder: String) async throws -> RecorderIdentity {
        var identity = RecorderIdentity.claim(folder: folder, host: "h", pid: pid)
        for _ in 0..<200 where identity.holder != holder {
            try await Task.sleep(for: .milliseconds(10))
            identity = RecorderIdentity.claim(folder: folder, host: "h", pid: pid)
        }
        return identity
    }

    @Test("the id is kept in the data folder: a recorder started again is the same holder; a second live one is not")
    func stableIdentity() async throws {
        try await withFolderAsync { folder in
            var first: RecorderIdentity? = RecorderIdentity.claim(folder: folder, host: "h", pid: 100)
            let holder = try #require(first?.holder)
            let id = try String(contentsOfFile: RecorderIdentity.file(in: folder), encoding: .utf8)
            #expect(holder == "h:" + id.dropLast())
            #expect(id.count == 33)
            // A second recorder on the same folder while the first lives: another holder.
            let second = RecorderIdentity.claim(folder: folder, host: "h", pid: 200)
            #expect(second.holder == holder + ":200")
            // The first dies (the kernel drops its lock, as on kill -9): a new process is the same holder.
            first = nil
            let restarted = try await Self.reclaim(folder: folder, pid: 300, expecting: holder)
            #expect(restarted.holder == holder)
        }
    }

    @Test("a restarted recorder renews its own unexpired lease at once")
    func reclaimsAtOnce() async throws {
        try await withFolderAsync { folder in
            let store = try Store.open(path: folder + "/agg.sqlite")
            let t0 = Timestamp(secondsSince1970: 1_800_000_000)
            let later = Timestamp(secondsSince1970: 1_800_000_001)
            var killed: RecorderIdentity? = RecorderIdentity.claim(folder: folder, host: "h", pid: 1)
            let holder = try #require(killed?.holder)
            #expect(
                try await store.claimVenues(
                    ["upbit"], holder: holder, now: t0, expiry: Timestamp(secondsSince1970: 1_800_000_030)) == ["upbit"]
            )
            killed = nil
            let restarted = try await Self.reclaim(folder: folder, pid: 2, expecting: holder)
            #expect(restarted.holder == holder)
            #expect(
                try await store.claimVenues(
                    ["upbit"], holder: restarted.holder, now: later, expiry: Timestamp(secondsSince1970: 1_800_000_031))
                    == ["upbit"])
        }
    }

    @Test("a folder that holds something else than an id gets a new one")
    func unreadableID() throws {
        try withFolder { folder in
            try "not an id\n".write(toFile: RecorderIdentity.file(in: folder), atomically: true, encoding: .utf8)
            let identity = RecorderIdentity.claim(folder: folder, host: "h", pid: 7)
            let id = try String(contentsOfFile: RecorderIdentity.file(in: folder), encoding: .utf8)
            #expect(identity.holder == "h:" + id.dropLast())
            #expect(id.count == 33)
        }
    }

    private func withFolder(_ body: (String) throws -> Void) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("agg-id-\(UUID())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try body(folder)
    }

    private func withFolderAsync(_ body: (String) async throws -> Void) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("agg-id-\(UUID())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try await body(folder)
    }
}
