import AggCore
import Testing

@Suite("Sorting rows by time")
struct TimeOrderTests {
    private struct Row {
        var name: String
        var time: Timestamp
    }

    /// Rows named by the order they were sent in, with their times in milliseconds.
    private let rows = [("a", 2), ("b", 1), ("c", 2), ("d", 3)].map { name, milliseconds in
        Row(name: name, time: Timestamp(millisecondsSince1970: Int64(milliseconds)))
    }

    @Test(
        "newest or oldest first; rows of one time as sent or reversed",
        arguments: [
            (true, TieOrder.asSent, "dacb"), (true, .reversed, "dcab"), (false, .asSent, "bacd"),
            (false, .reversed, "bcad"),
        ])
    func order(newestFirst: Bool, ties: TieOrder, expected: String) {
        let sorted = rows.sorted(byTime: \.time, newestFirst: newestFirst, ties: ties)
        #expect(sorted.map(\.name).joined() == expected)
    }
}
