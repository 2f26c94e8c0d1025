import AggCore
import AggOptions
import AggServer
import AggServices

/// `agg serve`'s lines on standard error.
package enum ServeRendering {
    package static func line(_ event: ServeService.Event) -> String {
        switch event {
        case .serving(let baseURL, let sources, let interval):
            "agg: serving on \(baseURL), polling \(sources) sources every \(RateText.format(interval)) s"
        case .stopped:
            "agg: stopped"
        }
    }

    /// A refused token is reported here with its own exit code; any other refusal is thrown for
    /// `CLI.run` to report.
    package static func refused(_ failure: ServeRequest.Failure, console: Console) throws(AggError) -> ExitCode {
        switch failure {
        case .token(let token):
            console.printError("agg: \(token.message)")
            return token.exitCode
        case .refused(let error):
            throw error
        }
    }

    /// The address could not be listened on: one line, exit 69.
    package static func unavailable(_ error: HTTPServerError, console: Console) -> ExitCode {
        console.printError("agg: \(error.description)")
        return .unavailable
    }
}
