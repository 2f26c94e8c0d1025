// Every concurrent fan-out in agg goes through the two functions in this file.
//
// Why they are written this way: Swift 6.3.1 with -O miscompiles an async function or closure
// whose result is generic (indirect: every task-group child and `Task` closure is one) when it
// returns a tuple with one element written before an `await` and again on a `catch` path. The
// element written first is lost on the success path: garbage values, then crashes in
// `TaskGroupBase::prepareWaitingTaskWithTask` (upstream: swiftlang/swift PR #91911, "Don't split
// async @out tuple results across suspensions"). Debug builds are correct, so only the release
// binary showed it.
//
// The rule (also in docs/architecture.md, "The release-miscompile rule"): a child task computes
// its awaited value or its `Result` into a local first, and only then builds what it returns,
// which is a struct or an enum, never a tuple. Here each child returns an `Indexed` struct built
// after the `await`, and the throwing variant turns the error into a `Result` in a local before
// that.

/// A value and the position of the element it was computed from.
private struct Indexed<Value: Sendable>: Sendable {
    var index: Int
    var value: Value
}

/// Runs `operation` on every element at once and returns the values in the elements' order.
public func concurrentMap<Element: Sendable, Value: Sendable>(
    _ elements: [Element], _ operation: @escaping @Sendable (Element) async -> Value
) async -> [Value] {
    await withTaskGroup(of: Indexed<Value>.self) { group in
        for (index, element) in elements.enumerated() {
            group.addTask {
                let value = await operation(element)
                return Indexed(index: index, value: value)
            }
        }
        var slots = [Value?](repeating: nil, count: elements.count)
        for await item in group { slots[item.index] = item.value }
        return slots.compactMap { $0 }
    }
}

/// Runs `operation` on every element at once and returns each outcome, success or the error,
/// in the elements' order: one failure does not hide the others.
public func concurrentResults<Element: Sendable, Value: Sendable>(
    _ elements: [Element], _ operation: @escaping @Sendable (Element) async throws(AggError) -> Value
) async -> [Result<Value, AggError>] {
    await concurrentMap(elements) { element in
        let result: Result<Value, AggError>
        do throws(AggError) {
            let value = try await operation(element)
            result = .success(value)
        } catch {
            result = .failure(error)
        }
        return result
    }
}

extension Result where Failure == AggError {
    /// The outcome of `operation` as a value, computed into a local before it is returned (see
    /// the note at the top of this file).
    public static func catching(_ operation: () async throws(AggError) -> Success) async -> Self {
        let result: Self
        do throws(AggError) {
            let value = try await operation()
            result = .success(value)
        } catch {
            result = .failure(error)
        }
        return result
    }
}

/// `operation`'s outcome, or `timeout` when it takes longer than `seconds` (it is then
/// cancelled, and waited for: an operation that honours cancellation ends at once).
///
/// The children return an `Optional<Result>` built after their `await`, never a tuple.
public func resultWithin<Value: Sendable>(
    seconds: Double, or timeout: AggError, _ operation: @escaping @Sendable () async throws(AggError) -> Value
) async -> Result<Value, AggError> {
    await withTaskGroup(of: Result<Value, AggError>?.self) { group in
        group.addTask {
            let outcome = await Result<Value, AggError>.catching { () throws(AggError) in try await operation() }
            return outcome
        }
        group.addTask {
            try? await Task.sleep(nanoseconds: UInt64(max(0, seconds) * 1e9))
            return nil
        }
        var outcome: Result<Value, AggError> = .failure(timeout)
        if let first = await group.next(), let answered = first {
            outcome = answered
        }
        group.cancelAll()
        return outcome
    }
}
