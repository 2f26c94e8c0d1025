import AggCore
import AggDataVenues
import AggTestKit
import AggVenues
import Foundation

/// Section 8: every streaming venue's ticker messages decoded by its real codec on one core:
/// the frames of `Fixtures/<id>/stream/ticker.jsonl` that read as quotes, read again and again
/// (`TickerStreamCodec.read`), in messages a second of the calling thread's CPU time and of wall
/// time (issue 22's target: 300,000 a second, every venue's format).
enum StreamDecodingSection {
    /// Messages read in one timed run, per venue.
    static let messagesPerRun = 50_000
    /// Issue 22's target, messages a second on one core.
    static let target = 300_000.0

    static func run(_ bench: Bench) throws {
        let registry = DataVenueLoader.load(into: .standard, shipped: [DataVenueDirectory.checkout], user: nil).registry
        let venues = registry.descriptors(supporting: .stream).map(\.id).sorted()
        print(
            "\(BenchSection.streamDecoding.rawValue). Stream decoding: \(messagesPerRun) ticker messages a run through each venue's codec, one core; "
                + "median of \(bench.runs) runs (target \(Int(target)) msg/s)")
        let receivedAt = Timestamp(millisecondsSince1970: 1_796_290_202_000)
        for venue in venues {
            let adapter = try registry.makeAdapter(
                id: venue,
                environment: AdapterEnvironment(baseURL: "https://\(venue).bench", http: ScriptedHTTPClient(body: "")))
            guard let codec = adapter.tickerStream else { continue }
            let frames = try WebSocketScript.fixture(venue: venue, name: "ticker").sentMessages.filter {
                if case .quotes(let quotes, _) = codec.read($0, receivedAt: receivedAt) { return !quotes.isEmpty }
                return false
            }
            guard !frames.isEmpty else {
                line("   \(venue)", "no ticker frames in Fixtures/\(venue)/stream/ticker.jsonl")
                continue
            }
            var times: [(wall: Double, cpu: Double)] = []
            var quoteCount = 0
            for _ in 0..<bench.runs {
                times.append(
                    timed {
                        quoteCount = 0
                        for index in 0..<messagesPerRun {
                            let reading = codec.read(frames[index % frames.count], receivedAt: receivedAt)
                            if case .quotes(let quotes, _) = reading { quoteCount += quotes.count }
                        }
                    })
            }
            let cpuRate = Double(messagesPerRun) / median(times.map(\.cpu))
            let wallRate = Double(messagesPerRun) / median(times.map(\.wall))
            line(
                "   \(venue) (\(frames.count) frames)",
                String(
                    format: "%9.0f msg/s CPU  %9.0f msg/s wall  %@", cpuRate, wallRate,
                    cpuRate >= target ? "ok" : "below target")
                    + String(format: "  (%.2f quotes a message)", Double(quoteCount) / Double(messagesPerRun)))
        }
    }
}
