import AggCore
import AggDataVenues
import Foundation
import Testing

/// Loading folders of venue files: a bad file is one error and never stops the others.
@Suite("data venue loader")
struct DataVenueLoaderTests {
    static let gopax = DataVenueDirectory.checkout.appendingPathComponent("gopax.json")

    func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("agg-dvl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Runs `body` with a shipped folder holding the shipped gopax.json, an empty user folder and
    /// the text of gopax.json; both folders are removed after.
    func withFolders(_ body: (_ shipped: URL, _ user: URL, _ gopax: String) throws -> Void) throws {
        let shipped = try folder()
        let user = try folder()
        defer {
            try? FileManager.default.removeItem(at: shipped)
            try? FileManager.default.removeItem(at: user)
        }
        let text = try String(contentsOf: Self.gopax, encoding: .utf8)
        try text.write(to: shipped.appendingPathComponent("gopax.json"), atomically: true, encoding: .utf8)
        try body(shipped, user, text)
    }

    @Test("shipped then user files; a bad file and a built-in id are one error each")
    func load() throws {
        try withFolders { shipped, user, text in
            try text.replacing(#""id": "gopax""#, with: #""id": "mine""#)
                .write(to: user.appendingPathComponent("mine.json"), atomically: true, encoding: .utf8)
            try text.replacing(#""id": "gopax""#, with: #""id": "builtin""#)
                .write(to: user.appendingPathComponent("builtin.json"), atomically: true, encoding: .utf8)
            try #"{"format": 1, "id": "x", "symbol": 3}"#.write(
                to: user.appendingPathComponent("bad.json"), atomically: true, encoding: .utf8)
            try "not a venue".write(to: user.appendingPathComponent("README.txt"), atomically: true, encoding: .utf8)

            let builtIn = AdapterRegistration(
                descriptor: AdapterDescriptor(
                    id: "builtin", displayName: "B", country: "KR", homeCurrency: "KRW", quoteCurrencies: ["KRW"],
                    capabilities: [.ticker], requestsPerSecond: 1, defaultBaseURL: "https://b.invalid")
            ) { _ in fatalError("not made in this test") }
            let loaded = DataVenueLoader.load(into: AdapterRegistry([builtIn]), shipped: [shipped], user: user)
            #expect(loaded.registry.ids == ["builtin", "gopax", "mine"])
            #expect(loaded.registry.registration(id: "builtin")?.origin == .builtIn)
            #expect(
                loaded.registry.registration(id: "gopax")?.origin
                    == .shippedFile(path: shipped.appendingPathComponent("gopax.json").path))
            #expect(
                loaded.registry.registration(id: "mine")?.origin
                    == .userFile(path: user.appendingPathComponent("mine.json").path))
            #expect(
                loaded.errors.map(\.description) == [
                    "venue file \(user.appendingPathComponent("bad.json").path): $.name: expected a string, found nothing",
                    "venue file \(user.appendingPathComponent("builtin.json").path): $.id: 'builtin' is a built-in venue",
                ])
        }
    }

    @Test("two user files with one id: the first (by name) stays, the second is refused naming the first")
    func duplicateIDs() throws {
        try withFolders { shipped, user, text in
            try text.write(to: shipped.appendingPathComponent("gopax2.json"), atomically: true, encoding: .utf8)
            // A user's file may replace a shipped venue: that is not a duplicate.
            try text.write(to: user.appendingPathComponent("a-gopax.json"), atomically: true, encoding: .utf8)
            try text.replacing(#""id": "gopax""#, with: #""id": "qaex""#)
                .write(to: user.appendingPathComponent("b.json"), atomically: true, encoding: .utf8)
            try text.replacing(#""id": "gopax""#, with: #""id": "qaex""#).replacing(
                #""name": "GOPAX""#, with: #""name": "Other""#
            )
            .write(to: user.appendingPathComponent("c.json"), atomically: true, encoding: .utf8)

            let loaded = DataVenueLoader.load(into: AdapterRegistry(), shipped: [shipped], user: user)
            #expect(loaded.registry.ids == ["gopax", "qaex"])
            #expect(loaded.registry.descriptor(id: "qaex")?.displayName == "GOPAX")
            #expect(
                loaded.registry.registration(id: "gopax")?.origin
                    == .userFile(path: user.appendingPathComponent("a-gopax.json").path))
            #expect(
                loaded.errors.map(\.description) == [
                    "venue file \(shipped.appendingPathComponent("gopax2.json").path): $.id: 'gopax' is already defined by "
                        + shipped.appendingPathComponent("gopax.json").path,
                    "venue file \(user.appendingPathComponent("c.json").path): $.id: 'qaex' is already defined by "
                        + user.appendingPathComponent("b.json").path,
                ])
        }
    }

    @Test("the user's folder is venues/ beside the config file; a missing folder loads nothing")
    func userFolder() {
        #expect(
            DataVenueLoader.userFolder(configPath: "/home/u/.config/agg/config.json").path
                == "/home/u/.config/agg/venues")
        let loaded = DataVenueLoader.load(
            into: AdapterRegistry(), shipped: [URL(fileURLWithPath: "/nonexistent/agg")], user: nil)
        #expect(loaded.registry.ids.isEmpty)
        #expect(loaded.errors.isEmpty)
    }
}
