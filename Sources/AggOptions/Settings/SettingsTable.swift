/// docs/configuration.md's table of settings, made from the declarations (`Settings.all`)
/// like help's defaults and `agg config show`, so that the three cannot disagree.
enum SettingsTable {
    /// The line before the table in the page.
    static let startMarker = "<!-- generated: settings (Tools/update-docs.sh) -->\n"
    /// The line after it.
    static let endMarker = "<!-- end of generated settings -->\n"

    /// One row per setting: its flag, config key, variable, default and what it does.
    static var markdown: String {
        let code = { (text: String?) in text.map { "`\($0)`" } ?? "" }
        let rows = Settings.all.map { setting in
            let summary = setting.summary.hasSuffix(".") ? String(setting.summary.dropLast()) : setting.summary
            return "| \(code(setting.flagName)) | \(code(setting.key)) | \(code(setting.variable)) | "
                + "\(setting.builtInText) | \(summary.replacing("|", with: "\\|")) |"
        }
        return (["| flag | config key | environment | default | what it sets |", "|---|---|---|---|---|"] + rows)
            .joined(separator: "\n") + "\n"
    }

    /// `page` with the text between the markers replaced by `markdown`; `nil` without them.
    package static func replacing(in page: String) -> String? {
        guard let start = page.range(of: startMarker), let end = page.range(of: endMarker),
            start.upperBound <= end.lowerBound
        else { return nil }
        return String(page[..<start.upperBound]) + markdown + String(page[end.lowerBound...])
    }
}
