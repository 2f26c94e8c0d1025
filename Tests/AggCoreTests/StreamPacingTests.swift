import Testing

@testable import AggCore

@Suite("Stream runner's arithmetic: backoff, windows, plans")
struct StreamPacingTests {
    @Test("seed 42's backoff: half the nominal delay plus up to the other half, the nominal doubling to 30 s")
    func backoffSequence() {
        var backoff = StreamBackoff(policy: .standard, seed: 42)
        // Checked against an independent SplitMix64 (Python): 500 + 73, 1000 + 313, ...
        let delays = (1...8).map { backoff.delay(afterFailures: $0) }
        #expect(delays == [573, 1313, 2168, 4542, 15279, 23040, 24816, 24120].map { Duration.milliseconds($0) })
    }

    @Test("the backoff never exceeds its cap nor falls under half of it, however many failures")
    func backoffCapped() {
        var backoff = StreamBackoff(policy: .standard, seed: 7)
        for failures in [6, 7, 50, 64, 65, 1_000, Int.max] {
            let delay = backoff.delay(afterFailures: failures)
            #expect(delay >= .seconds(15) && delay <= .seconds(30), "failure \(failures): \(delay)")
        }
    }

    @Test("a sliding window lets `limit` events through per window, the next at the oldest's end")
    func slidingWindow() {
        var pacer = SlidingWindowPacer(limit: 2, window: .seconds(10))
        let slots = (0..<5).map { _ in pacer.reserve(from: .seconds(1)) }
        #expect(slots == [.seconds(1), .seconds(1), .seconds(11), .seconds(11), .seconds(21)])
        #expect(pacer.nextSlot(from: .seconds(40)) == .seconds(40))
    }

    @Test("markets are cut in order into runs of at most the quota; a quota under 1 counts as 1")
    func chunks() {
        #expect(VenueStream.chunks([1, 2, 3, 4, 5], of: 2) == [[1, 2], [3, 4], [5]])
        #expect(VenueStream.chunks([1, 2], of: 0) == [[1], [2]])
        #expect(VenueStream.chunks([Int](), of: 3) == [])
    }

    @Test("durations read in seconds with up to three decimals")
    func durationText() {
        #expect(StreamDurationText.seconds(.seconds(30)) == "30")
        #expect(StreamDurationText.seconds(.milliseconds(2500)) == "2.5")
        #expect(StreamDurationText.seconds(.milliseconds(30_573)) == "30.573")
        #expect(StreamDurationText.seconds(.milliseconds(5)) == "0.005")
    }
}
