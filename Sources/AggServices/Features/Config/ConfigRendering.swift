import AggJSON

/// Writes `agg config`'s report: the path on standard output (with a note on standard error
/// when no file is there yet), or the settings as pretty JSON.
package enum ConfigRendering {
    package static func write(_ report: ConfigReport, console: Console) {
        switch report {
        case .path(let path, let exists):
            console.print(path)
            if !exists { console.printError("agg: no file there yet; built-in defaults are in effect") }
        case .settings(let json):
            console.print(json.serialized(pretty: true))
        }
    }
}
