import Foundation
import Testing

private let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

/// The commands that reach venues are declarations plus building a request: the shared network
/// steps live once in `NetworkRun`, the checks in each feature's request, and `agg serve`'s
/// endpoints hold no use-case logic of their own (they build the same requests).
@Suite("command files are thin; serve builds the commands' requests")
struct CommandShapeTests {
    static let networkCommands = [
        "Quote", "Compare", "Premium", "Rates", "Book", "Trades", "Candles", "Status", "Search",
    ]

    static func source(_ path: String) throws -> String {
        try String(contentsOf: packageRoot.appendingPathComponent(path), encoding: .utf8)
    }

    @Test("a network command goes through NetworkRun and repeats none of its steps", arguments: networkCommands)
    func networkCommand(name: String) throws {
        let text = try Self.source("Sources/AggCLI/Commands/\(name)Command+Run.swift")
        #expect(text.contains("NetworkRun("))
        for step in ["NetworkOptions(", "AdapterFactory(", "announceOffline", "ProgressLine.during", "Output.write"] {
            #expect(!text.contains(step), "\(name)Command repeats \(step)")
        }
        #expect(text.split(separator: "\n", omittingEmptySubsequences: false).count <= 80)
    }

    @Test("agg history's command file is thin too")
    func history() throws {
        let text = try Self.source("Sources/AggCLI/Commands/HistoryCommand+Run.swift")
        #expect(text.contains("HistoryRequest("))
        #expect(text.split(separator: "\n", omittingEmptySubsequences: false).count <= 80)
    }

    @Test(
        "ServeEndpoints validates and plans nothing itself",
        arguments: [
            "AssetCode.", "ComparePlan(", "FXOptions(", "RateComparison(", "FavoritesFirst", "QuoteService.plan(",
            "TransferStatusService.venues(", "NetworkOptions(", "PremiumCommand.board",
        ])
    func serveEndpoints(step: String) throws {
        let text = try Self.source("Sources/AggServe/ServeEndpoints.swift")
        #expect(!text.contains(step))
    }
}
