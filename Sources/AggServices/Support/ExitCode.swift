/// What `agg` returns to the shell.
package enum ExitCode: Int32, Sendable {
    /// Everything asked for was answered.
    case success = 0
    /// At least one source failed; what did answer was still printed.
    case sourceFailed = 1
    /// The command line was wrong (bad flag, bad symbol, unknown exchange).
    case usage = 64
    /// The receiver refused what was sent (EX_DATAERR): `agg alert test` got a 4xx.
    case dataRejected = 65
    /// A service could not start (EX_UNAVAILABLE): `agg serve` could not listen on its address.
    case unavailable = 69
    /// The local database could not be used.
    case localFailure = 70
    /// Standard output could not be written (EX_IOERR): disk full, an I/O error. The output
    /// is lost, so this wins over every other outcome.
    case outputFailure = 74
    /// The config file is malformed (EX_CONFIG): its path and the problem are on stderr.
    case configuration = 78
}
