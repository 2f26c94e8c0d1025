// A stand-in recorder for the three-recorder test of the PostgreSQL store (AggPostgresTests):
// it leases venues and records sample prices the way `agg record` does, and nothing else.
//
//   agg-lease-recorder URL NUMBER HOME OTHERS INTERVAL_MS LEASE_MS GRACE_MS
//
// Every INTERVAL_MS it claims its HOME venues (comma-separated) and, once it has run for
// GRACE_MS (so that its peers had time to claim their own), the OTHERS too, which it gets only
// when their lease expired; then it records one sample price per venue it holds: the price is
// NUMBER (who wrote it) and the volume is the lease's expiry in milliseconds, so the test can
// check from the rows alone that no two recorders' leases overlapped. Errors go to stderr, exit 1.
import AggCore
import AggPostgres
import FoundationEssentials
@preconcurrency import Glibc

@main
struct LeaseRecorder {
    static func main() async {
        let arguments = CommandLine.arguments
        guard arguments.count == 8, let number = Int(arguments[2]), let interval = Int64(arguments[5]),
            let lease = Int64(arguments[6]), let grace = Int64(arguments[7])
        else {
            fail("usage: agg-lease-recorder URL NUMBER HOME OTHERS INTERVAL_MS LEASE_MS GRACE_MS")
        }
        let home = arguments[3].split(separator: ",").map(String.init)
        let others = arguments[4].split(separator: ",").map(String.init)
        do throws(AggError) {
            let store = try await PostgresHistoryStore.open(try PostgresURL(arguments[1]))
            let started = milliseconds()
            while true {
                let now = milliseconds()
                let venues = now - started >= grace ? home + others : home
                let expiry = Timestamp(millisecondsSince1970: now + lease)
                let held = try await store.claimVenues(
                    venues, holder: "recorder-\(number)", now: Timestamp(millisecondsSince1970: now), expiry: expiry)
                let time = Timestamp(millisecondsSince1970: now)
                let prices = held.sorted().map { venue in
                    PricePoint(
                        time: time, exchange: venue, market: Market(base: "BTC", quote: "KRW"),
                        last: Decimal(number), baseVolume: Decimal(expiry.millisecondsSince1970))
                }
                try await store.record(RecordedTick(time: time, prices: prices))
                try? await Task.sleep(for: .milliseconds(interval))
            }
        } catch {
            fail(error.description)
        }
    }

    static func milliseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
    }

    static func fail(_ message: String) -> Never {
        fputs("agg-lease-recorder: \(message)\n", stderr)
        exit(1)
    }
}
