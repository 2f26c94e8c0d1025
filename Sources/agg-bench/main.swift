// agg-bench: measures what users feel. Run with `swift run -c release agg-bench`.
import AggCore
import AggJSON
import AggTestKit
import Bithumb
import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())
let runs =
    arguments.firstIndex(of: "--runs").flatMap { index in
        arguments.indices.contains(index + 1) ? Int(arguments[index + 1]) : nil
    } ?? 21

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.count % 2 == 1
        ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

let body = try Fixtures.bytes("bithumb/ticker_ALL_KRW.json")
var quoteCount = 0
let decodeTimes = try (0..<runs).map { _ in
    try seconds {
        let json = JSONCursor(try JSONParser.parse(body))
        quoteCount = try BithumbDecoding.quotes(data: json["data"], shape: .all(payment: "KRW")).count
    }
}
let parseTimes = try (0..<runs).map { _ in try seconds { _ = try JSONParser.parse(body) } }
let foundationTimes = try (0..<runs).map { _ in
    try seconds { _ = try JSONSerialization.jsonObject(with: Data(body)) }
}
let foundationDecodeTimes = try (0..<runs).map { _ in
    try seconds { _ = try BithumbFoundationDecoding.allQuotes(body, payment: "KRW") }
}
let megabytes = Double(body.count) / 1_000_000
func report(_ name: String, _ times: [Double]) {
    let m = median(times)
    print(String(format: "%-44@ %8.3f ms  %8.1f MB/s", name as NSString, m * 1000, megabytes / m))
}
print("Bithumb ALL_KRW: \(body.count) bytes, \(quoteCount) quotes, median of \(runs) runs")
report("parse + decode + normalize (agg)", decodeTimes)
report("parse only (agg JSONParser)", parseTimes)
report("Foundation JSONDecoder + Decimal(string:)", foundationDecodeTimes)
report("Foundation JSONSerialization (parse only)", foundationTimes)
