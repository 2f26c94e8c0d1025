import AggCore

/// Runs a refresh every `interval` seconds until `count` refreshes are done, a refresh says to
/// stop, or a stop signal comes (Ctrl-C, SIGTERM, SIGHUP). `agg watch` uses it; any command
/// that refreshes (`agg premium --watch`) can.
package struct RefreshLoop: Sendable {
    /// How a loop ended.
    package enum End<State: Sendable>: Sendable {
        /// Every refresh was done, or one said to stop: the state after the last.
        case finished(State)
        /// A stop signal came.
        case stopped
        /// A refresh threw.
        case failed(AggError)
    }

    /// Seconds between the start of one wait and the next refresh.
    var interval: Double
    /// Refreshes to make; `nil` for no limit.
    var count: Int?

    /// Calls `refresh` with the state and the refresh's number (from 1) until the loop ends;
    /// `refresh` returns whether to go on.
    package func run<State: Sendable>(
        _ initial: State, interrupts: AsyncStream<Void>,
        refresh: @escaping @Sendable (inout State, Int) async throws(AggError) -> Bool
    ) async -> End<State> {
        let interval = self.interval
        let count = self.count
        return await withTaskGroup(of: End<State>?.self) { group in
            group.addTask {
                var state = initial
                var number = 0
                while !Task.isCancelled {
                    number += 1
                    do throws(AggError) {
                        guard try await refresh(&state, number) else { break }
                    } catch {
                        return End<State>.failed(error)
                    }
                    if let count, number >= count { break }
                    do { try await Task.sleep(for: .seconds(interval)) } catch { break }
                }
                return End<State>.finished(state)
            }
            group.addTask {
                for await _ in interrupts { return End<State>.stopped }
                return nil
            }
            var end: End<State> = .stopped
            while let event = await group.next() {
                guard let event else { continue }
                end = event
                group.cancelAll()
                break
            }
            return end
        }
    }

    package init(interval: Double, count: Int? = nil) {
        self.interval = interval
        self.count = count
    }
}
