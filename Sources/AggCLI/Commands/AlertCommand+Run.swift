import AggCore
import AggOptions
import AggServices

extension AlertCommand: Command {
    static func run(_ arguments: ParsedArguments, context: CLIContext) async throws(AggError)
        -> ExitCode
    {
        let request = try AlertTestRequest(arguments, context: context)
        let report = await AlertTestService().run(request, at: context.now())
        // printError-style escaping: an answer's preview is the destination's text.
        for line in report.lines { context.console.print(TerminalText.escape(line)) }
        return report.exitCode
    }
}
