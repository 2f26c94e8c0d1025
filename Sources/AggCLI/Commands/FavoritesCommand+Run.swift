import AggCore
import AggOptions
import AggServices
import AggStore

extension FavoritesCommand: Command {
    /// Runs the command; store failures are thrown as `AggError.store` (exit 70).
    static func run(_ arguments: ParsedArguments, context: CLIContext) async throws(AggError)
        -> ExitCode
    {
        let request = try FavoritesRequest(arguments)
        let environment = context.environment
        let service = FavoritesService { () throws(AggError) in try Store.open(environment: environment) }
        let format = OutputFormat.resolve(context.settings(arguments), console: context.console)
        return try service.run(request).write(format: format, console: context.console)
    }
}
