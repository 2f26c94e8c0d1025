import FoundationEssentials

/// Terminal colours, applied only when colour is on.
package struct TextStyle: Sendable {
    /// How up and down are coloured.
    package enum Palette: String, Sendable, CaseIterable {
        /// Green up, red down (the Western convention).
        case standard
        /// Red up, blue down (the Korean convention).
        case kr
    }

    package var enabled: Bool
    package var palette: Palette

    package init(enabled: Bool, palette: Palette = .standard) {
        self.enabled = enabled
        self.palette = palette
    }

    /// No colour at all.
    package static let plain = TextStyle(enabled: false)

    /// Decides colour the way users expect: an explicit `--color always|never` or `--no-color`
    /// wins; then `NO_COLOR` turns it off; then it is on only for a terminal whose `TERM` is not
    /// `dumb`.
    package static func decide(
        flag: String?, noColor: Bool, environment: [String: String], isTerminal: Bool
    ) -> Bool {
        if noColor { return false }
        switch flag {
        case "always": return true
        case "never": return false
        default: break
        }
        if let value = environment["NO_COLOR"], !value.isEmpty { return false }
        return isTerminal && environment["TERM"] != "dumb"
    }

    private func wrap(_ text: String, _ code: String) -> String {
        enabled && !text.isEmpty ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }

    package func up(_ text: String) -> String { wrap(text, palette == .kr ? "31" : "32") }
    package func down(_ text: String) -> String { wrap(text, palette == .kr ? "34" : "31") }
    package func bold(_ text: String) -> String { wrap(text, "1") }
    package func dim(_ text: String) -> String { wrap(text, "2") }
    package func warning(_ text: String) -> String { wrap(text, "33") }
    /// Red whatever the palette: a mark that must not be read as a price move (a stale quote).
    package func alarm(_ text: String) -> String { wrap(text, "31") }
    /// Reverse video, for cells that changed since the last refresh.
    package func highlight(_ text: String) -> String { wrap(text, "7") }

    /// Colours `text` by the sign of `value`: up when positive, down when negative.
    package func signed(_ text: String, _ value: Decimal?) -> String {
        guard let value else { return text }
        if value > 0 { return up(text) }
        if value < 0 { return down(text) }
        return text
    }
}
