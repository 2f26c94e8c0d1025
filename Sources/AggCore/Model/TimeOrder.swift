/// The order of rows that share a time once they are sorted by time.
public enum TieOrder: Sendable, Equatable {
    /// The order the venue sent them in.
    case asSent
    /// The reverse: for a venue that lists oldest first, so that among rows of one millisecond the
    /// last sent (the newest) still comes first when sorting newest first, and the other way round.
    case reversed
}

extension Array {
    /// The rows sorted by `time`, newest or oldest first, with rows of the same time in `ties`
    /// order: trades come out newest first and candles oldest first whatever order the venue
    /// sends, without losing the venue's own order inside one millisecond.
    public func sorted(byTime time: (Element) -> Timestamp, newestFirst: Bool, ties: TieOrder) -> [Element] {
        enumerated().sorted { lhs, rhs in
            let left = time(lhs.element)
            let right = time(rhs.element)
            if left != right { return newestFirst ? left > right : left < right }
            return ties == .asSent ? lhs.offset < rhs.offset : lhs.offset > rhs.offset
        }.map(\.element)
    }
}

/// The time order the core promises for rows of a venue's answer: candles oldest first, trades
/// newest first, whatever order an adapter hands them in.
public enum TimeOrder {
    /// `rows` as they are when already in order (a venue's own order among rows of one time
    /// stands), else sorted by time, stably.
    public static func ensured<Row>(_ rows: [Row], time: (Row) -> Timestamp, newestFirst: Bool) -> [Row] {
        let inOrder = zip(rows, rows.dropFirst()).allSatisfy { earlier, later in
            newestFirst ? time(earlier) >= time(later) : time(earlier) <= time(later)
        }
        return inOrder ? rows : rows.sorted(byTime: time, newestFirst: newestFirst, ties: .asSent)
    }
}
