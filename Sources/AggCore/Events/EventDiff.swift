import FoundationEssentials

/// The events between a source's stored state and a new observation of it, and the state to
/// store next: the one rule every event store applies inside its transaction.
public enum EventDiff {
    /// How many notices a source's state remembers after they drop off the venue's list, so
    /// that one coming back (a longer list, an edit) is not posted twice; the oldest go first.
    public static let rememberedNotices = 500

    /// What `observation` changes from `previous`.
    public struct Transition: Sendable, Equatable {
        /// The events, in the order of their facts' identities (appearances and goings mixed).
        public var events: [MarketEvent]
        /// The facts to store as the source's state.
        public var state: [EventFact]
    }

    /// The events `observation` raises against `previous` (the source's stored facts, or `nil`
    /// when the source was never observed) and the next state.
    ///
    /// A first observation is the baseline: it raises nothing, so a new recorder does not call
    /// every listed coin "listed". A fact that appears raises its condition's `appeared` kind; one
    /// that goes raises its `disappeared` kind, if any. Notices stay in the state after they go
    /// (up to `rememberedNotices`), so one that comes back is not posted again. A fact whose
    /// identity repeats within the observation counts once (the first). A fact of a coin the
    /// observation could not read (`EventObservation.unread`) that is missing from it has not
    /// gone: it raises nothing and stays in the state.
    public static func transition(from previous: [EventFact]?, to observation: EventObservation) -> Transition {
        var current: [EventFact.Identity: EventFact] = [:]
        for fact in observation.facts where current[fact.identity] == nil {
            current[fact.identity] = fact
        }
        guard let previous else {
            return Transition(events: [], state: sorted(Array(current.values)))
        }
        var before: [EventFact.Identity: EventFact] = [:]
        for fact in previous where before[fact.identity] == nil {
            before[fact.identity] = fact
        }
        var events: [MarketEvent] = []
        var kept: [EventFact] = []
        var held: [EventFact] = []
        for identity in Set(before.keys).union(current.keys).sorted() {
            switch (before[identity], current[identity]) {
            case (nil, let fact?):
                events.append(event(fact.condition.appeared, of: fact, in: observation))
            case (let fact?, nil):
                if let symbol = fact.symbol, observation.unread.contains(symbol) {
                    held.append(fact)
                } else if let kind = fact.condition.disappeared {
                    events.append(event(kind, of: fact, in: observation))
                } else {
                    kept.append(fact)
                }
            default:
                break
            }
        }
        let remembered = kept.sorted {
            ($0.venueTime?.millisecondsSince1970 ?? .min, $0.identity) > (
                $1.venueTime?.millisecondsSince1970 ?? .min, $1.identity
            )
        }
        let noticesHeld = current.values.filter { $0.condition == .notice }.count
        let room = max(0, rememberedNotices - noticesHeld)
        return Transition(
            events: events, state: sorted(Array(current.values) + held + remembered.prefix(room)))
    }

    private static func event(_ kind: MarketEventKind, of fact: EventFact, in observation: EventObservation)
        -> MarketEvent
    {
        MarketEvent(
            venue: observation.venue, kind: kind, symbol: fact.symbol, network: fact.network, subject: fact.subject,
            detail: fact.detail, firstObserved: observation.observedAt, venueTime: fact.venueTime)
    }

    private static func sorted(_ facts: [EventFact]) -> [EventFact] {
        facts.sorted { $0.identity < $1.identity }
    }
}
