/// English glosses of venue messages known to come in Korean, shown next to the original in
/// one-line error text so that a reader who does not read Korean still knows what was said.
///
/// This is data, not logic: nothing is decided on a message (adapters switch on the venue's
/// code). A message is looked up whole, ignoring white space and a final period, because the
/// venues space the same sentence differently ("확인해주세요" and "확인해 주세요" both occur).
/// The JSON `message` stays the venue's text, verbatim.
public enum VenueMessageGlossary {
    /// One known message and its gloss.
    public struct Entry: Sendable {
        /// The venue's text, as one answer carried it.
        public var message: String
        /// What it says, in a few English words.
        public var english: String
    }

    /// The known messages. Sources: Bithumb's public API (5500 for an unlisted coin or an ALL
    /// request it does not serve, 5600 notices), as recorded in Fixtures/bithumb and in public
    /// issue trackers of other clients.
    public static let entries: [Entry] = [
        Entry(message: "잘못된 코인명입니다.", english: "invalid coin name"),
        Entry(message: "입력값을 확인해주세요.", english: "please check the input"),
        Entry(message: "요청 횟수가 너무 많습니다. 잠시 후 다시 시도해주세요.", english: "too many requests; try again in a moment"),
    ]

    private static let byKey: [String: String] = Dictionary(
        entries.map { (key($0.message), $0.english) }, uniquingKeysWith: { first, _ in first })

    /// The English gloss of `message`, or `nil` when it is not a known message.
    public static func english(for message: String) -> String? {
        let key = key(message)
        return key.isEmpty ? nil : byKey[key]
    }

    private static func key(_ message: String) -> String {
        var key = String(message.unicodeScalars.filter { !$0.properties.isWhitespace })
        while key.hasSuffix(".") { key.removeLast() }
        return key
    }
}
