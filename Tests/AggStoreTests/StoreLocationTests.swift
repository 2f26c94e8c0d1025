import AggCore
import Foundation
import Testing

@testable import AggStore

@Suite("Where the database lives")
struct StoreLocationTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var environment: [String: String]
        var expected: String
        var testDescription: String { "\(environment.sorted { $0.key < $1.key }) → \(expected)" }
    }

    static let cases: [Case] = [
        Case(
            environment: ["AGG_HOME": "/opt/agg", "XDG_DATA_HOME": "/xdg", "HOME": "/home/u"],
            expected: "/opt/agg/agg.sqlite"
        ),
        Case(environment: ["AGG_HOME": "/opt/agg/"], expected: "/opt/agg/agg.sqlite"),
        Case(
            environment: ["AGG_HOME": "", "XDG_DATA_HOME": "/xdg", "HOME": "/home/u"],
            expected: "/xdg/agg/agg.sqlite"
        ),
        Case(environment: ["XDG_DATA_HOME": "/xdg/", "HOME": "/home/u"], expected: "/xdg/agg/agg.sqlite"),
        Case(
            environment: ["AGG_HOME": "", "XDG_DATA_HOME": "", "HOME": "/home/u"],
            expected: "/home/u/.local/share/agg/agg.sqlite"
        ),
        Case(
            environment: ["XDG_DATA_HOME": "relative/data", "HOME": "/home/u"],
            expected: "/home/u/.local/share/agg/agg.sqlite"
        ),
        Case(environment: ["HOME": "/home/u"], expected: "/home/u/.local/share/agg/agg.sqlite"),
    ]

    @Test("resolves by AGG_HOME, then XDG_DATA_HOME, then HOME", arguments: cases)
    func resolves(_ row: Case) throws {
        #expect(try StoreLocation.resolve(environment: row.environment).path == row.expected)
    }

    @Test(
        "fails clearly when no variable names a place",
        arguments: [[:], ["HOME": ""], ["AGG_HOME": "", "XDG_DATA_HOME": "", "HOME": ""]]
    )
    func noPlace(_ environment: [String: String]) {
        let message = storeErrorMessage { () throws(AggError) in
            _ = try StoreLocation.resolve(environment: environment)
        }
        #expect(message?.contains("AGG_HOME") == true)
    }

    @Test("creates the folders on first use")
    func createsFolders() async throws {
        try await withTemporaryDirectory { folder in
            let environment = ["XDG_DATA_HOME": folder + "/deep/data", "HOME": "/nonexistent"]
            let store = try Store.open(environment: environment)
            #expect(store.path == folder + "/deep/data/agg/agg.sqlite")
            #expect(FileManager.default.fileExists(atPath: store.path))
            // A second open finds the folders in place.
            #expect(try Store.open(environment: environment).path == store.path)
        }
    }

    @Test("a location under a regular file gives an error naming the path")
    func underRegularFile() async throws {
        try await withTemporaryDirectory { folder in
            let file = folder + "/plain-file"
            try Data("not a folder".utf8).write(to: URL(fileURLWithPath: file))
            let message = storeErrorMessage { () throws(AggError) in
                _ = try Store.open(environment: ["AGG_HOME": file + "/agg"])
            }
            #expect(message?.contains(file + "/agg") == true)
            #expect(message?.contains("not a directory") == true)
        }
    }
}
