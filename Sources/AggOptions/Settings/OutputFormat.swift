/// The shape of standard output.
package enum OutputFormat: String, Sendable, CaseIterable {
    case table, json, csv
}
