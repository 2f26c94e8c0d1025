import AggCore
import AggDataVenues
import Foundation
import Testing

/// Issue 20, rule 4: a venue file's `requestsPerSecond` outside 0.001...1000 is refused where it
/// is read, naming the file and the key (the CLI exits 78), instead of crashing or hanging the
/// command that uses it (1e-20 crashed `watch`, 1e-25 `record`, 1e-300 hung `quote`).
@Suite("a venue file's request rate")
struct VenueRequestRateTests {
    static let gopax = DataVenueDirectory.checkout.appendingPathComponent("gopax.json")

    @Test(
        "a rate outside 0.001...1000 is one error naming the file and $.requestsPerSecond",
        arguments: [
            ("0.00000000000000000001", "1e-20"), ("0.0000000000000000000000001", "1e-25"), ("0.0009", "0.0009"),
        ])
    func refused(text: String, shown: String) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("agg-rate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let original = try String(contentsOf: Self.gopax, encoding: .utf8)
        let edited = original.replacing(#""requestsPerSecond": 20"#, with: #""requestsPerSecond": "# + text)
        #expect(edited != original)
        let file = folder.appendingPathComponent("slow.json")
        try edited.write(to: file, atomically: true, encoding: .utf8)
        #expect(
            throws: DataVenueFileError(
                file: file.path, path: "$.requestsPerSecond",
                problem: "expected a number of requests a second from 0.001 to 1000, found \(shown)")
        ) {
            try DataVenueLoader.load(file: file) { .userFile(path: $0) }
        }
    }

    @Test("the bounds themselves are accepted", arguments: ["0.001", "1000"])
    func accepted(text: String) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("agg-rate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let original = try String(contentsOf: Self.gopax, encoding: .utf8)
        let file = folder.appendingPathComponent("edge.json")
        try original.replacing(#""requestsPerSecond": 20"#, with: #""requestsPerSecond": "# + text)
            .write(to: file, atomically: true, encoding: .utf8)
        let registration = try DataVenueLoader.load(file: file) { .userFile(path: $0) }
        #expect(registration.descriptor.requestsPerSecond == Double(text))
    }
}
