/// Splitting the markets of one request into requests whose URLs stay short enough.
///
/// Venues that take several markets in one URL (`/v1/ticker?markets=KRW-BTC,KRW-ETH`) answer a
/// long URL with 414 or 400, and a failed request's error names its URL: 10,000 markets in one
/// URL made a 90 KB request line, repeated in every market's error. Batches are cut so that each
/// URL is at most `maximumURLLength` bytes, a length web servers take (nginx's default header
/// buffers are 8 KB), and at most `maximumCount` markets when the venue caps that too.
public enum URLBatches {
    /// The longest URL agg builds for a batch of markets, in bytes.
    public static let maximumURLLength = 8 * 1024

    /// `items` in order, cut into consecutive batches whose `url` is at most `maximumLength`
    /// bytes and that hold at most `maximumCount` items. An item whose URL alone is longer is a
    /// batch of its own. No items, no batches.
    public static func split<Item>(
        _ items: [Item], maximumCount: Int = .max, maximumLength: Int = maximumURLLength, url: ([Item]) -> String
    ) -> [[Item]] {
        guard !items.isEmpty else { return [] }
        // A batch URL is a fixed part, each item's text, and a separator between items: the
        // lengths are measured once, so that 10,000 markets cost 10,000 short URLs, not a long
        // URL per market; every batch is then checked with its real URL.
        let fixed = url([]).utf8.count
        let separator =
            items.count >= 2
            ? max(
                0,
                url([items[0], items[1]]).utf8.count - url([items[0]]).utf8.count - url([items[1]]).utf8.count + fixed)
            : 0
        var batches: [[Item]] = []
        var current: [Item] = []
        var length = fixed
        for item in items {
            let own = url([item]).utf8.count - fixed
            if !current.isEmpty, current.count >= max(1, maximumCount) || length + separator + own > maximumLength {
                batches.append(current)
                current = []
                length = fixed
            }
            length += (current.isEmpty ? 0 : separator) + own
            current.append(item)
        }
        batches.append(current)
        return batches.flatMap { checked($0, maximumLength: maximumLength, url: url) }
    }

    /// `batch`, halved until each part's real URL fits (or is one item).
    private static func checked<Item>(_ batch: [Item], maximumLength: Int, url: ([Item]) -> String) -> [[Item]] {
        guard batch.count > 1, url(batch).utf8.count > maximumLength else { return [batch] }
        let middle = batch.count / 2
        return checked(Array(batch[..<middle]), maximumLength: maximumLength, url: url)
            + checked(Array(batch[middle...]), maximumLength: maximumLength, url: url)
    }
}
