import AggCore
import AggServer

/// `agg serve`'s lines on standard error.
enum ServeRendering {
    static func line(_ event: ServeService.Event) -> String {
        switch event {
        case .serving(let baseURL, let sources, let interval):
            "agg: serving on \(baseURL), polling \(sources) sources every \(RateText.format(interval)) s"
        case .stopped:
            "agg: stopped"
        }
    }

    /// A refused token is reported here with its own exit code; any other refusal is thrown for
    /// `CLI.run` to report.
    static func refused(_ failure: ServeRequest.Failure, console: Console) throws(AggError) -> ExitCode {
        switch failure {
        case .token(let token):
            console.printError("agg: \(token.message)")
            return token.exitCode
        case .refused(let error):
            throw error
        }
    }

    /// The address could not be listened on: one line, exit 69.
    static func unavailable(_ error: HTTPServerError, console: Console) -> ExitCode {
        console.printError("agg: \(error.description)")
        return .unavailable
    }
}
