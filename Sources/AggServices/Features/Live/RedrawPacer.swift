import AggCore

/// Coalesces changes into redraws at most `perSecond` a second: a change that comes sooner
/// after the last redraw waits for the next slot, and the changes that come meanwhile join it.
/// Time is the stream clock's (`StreamClock.now`), so tests move it by hand.
package struct RedrawPacer: Sendable, Equatable {
    /// The least time between two redraws.
    package let spacing: Duration
    /// When the last redraw was made; `nil` before the first.
    package private(set) var lastRedraw: Duration?
    /// When the pending redraw is due; `nil` when none is pending.
    package private(set) var pending: Duration?

    /// At most `perSecond` redraws a second (4 for `agg watch --stream` and `agg premium --watch
    /// --stream`).
    package init(perSecond: Int = 4) {
        spacing = .seconds(1) / max(1, perSecond)
    }

    /// What to do about a change at `now`.
    package enum Decision: Sendable, Equatable {
        /// Redraw now.
        case redraw
        /// A redraw is due at this time: set a timer for it (the first change of a slot).
        case schedule(Duration)
        /// A redraw is already due; the change joins it.
        case joined
    }

    /// A change came at `now`.
    package mutating func changed(at now: Duration) -> Decision {
        if pending != nil { return .joined }
        guard let lastRedraw, now < lastRedraw + spacing else { return .redraw }
        pending = lastRedraw + spacing
        return .schedule(lastRedraw + spacing)
    }

    /// A redraw was made at `now`.
    package mutating func redrew(at now: Duration) {
        lastRedraw = now
        pending = nil
    }

    /// A change came now on `clock`: true when it is to be drawn at once (the draw is noted);
    /// otherwise, for the first change of a slot, `timer` becomes a task that calls `due` when
    /// the slot comes (the caller then draws and calls `redrew(at:)`), and later changes join it.
    package mutating func drawsNow(
        on clock: any StreamClock, timer: inout Task<Void, Never>?, due: @escaping @Sendable () -> Void
    ) -> Bool {
        switch changed(at: clock.now) {
        case .redraw:
            redrew(at: clock.now)
            return true
        case .schedule(let deadline):
            timer = Task {
                guard (try? await clock.sleep(until: deadline)) != nil else { return }
                due()
            }
            return false
        case .joined:
            return false
        }
    }
}
