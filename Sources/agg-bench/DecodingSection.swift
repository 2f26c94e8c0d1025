import AggJSON
import AggTestKit
import Bithumb
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Section 1: parse + decode + normalize of Bithumb's 480-coin ALL_KRW answer in process, in
/// ms and MB/s, against Foundation's `JSONDecoder` with `Decimal(string:)` and
/// `JSONSerialization`.
enum DecodingSection {
    static func run(_ bench: Bench) throws {
        let runs = bench.runs
        let body = bench.body
        let megabytes = bench.megabytes
        var quoteCount = 0
        let decodeTimes = try (0..<runs).map { _ in
            try seconds {
                let json = JSONCursor(try JSONParser.parse(body))
                quoteCount = try BithumbDecoding.quotes(data: json["data"], shape: .all(payment: "KRW")).values.count
            }
        }
        let parseTimes = try (0..<runs).map { _ in try seconds { _ = try JSONParser.parse(body) } }
        let foundationDecodeTimes = try (0..<runs).map { _ in
            try seconds { _ = try BithumbFoundationDecoding.allQuotes(body, payment: "KRW") }
        }
        let serializationTimes = try (0..<runs).map { _ in
            try seconds { _ = try JSONSerialization.jsonObject(with: Data(body)) }
        }
        func throughput(_ name: String, _ times: [Double]) {
            let value = median(times)
            line(name, String(format: "%8.3f ms  %7.1f MB/s", value * 1000, megabytes / value))
        }
        print(
            "\(BenchSection.decoding.rawValue). Bithumb ALL_KRW: \(body.count) bytes, \(quoteCount) quotes; median of \(runs) runs"
        )
        throughput("   agg: parse + decode + normalize", decodeTimes)
        throughput("   agg: parse only", parseTimes)
        throughput("   Foundation JSONDecoder + Decimal(string:)", foundationDecodeTimes)
        throughput("   Foundation JSONSerialization, parse only", serializationTimes)
    }
}
