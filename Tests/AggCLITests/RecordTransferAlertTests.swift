import Testing

/// Issue 20: `agg record --alert 'XRP withdraw closed'` was accepted and never fired (record
/// never asks transfer status). As docs/alerts.md promises for a rule record cannot evaluate,
/// it is now exit 64 before any request.
@Suite("agg record refuses transfer alerts")
struct RecordTransferAlertTests {
    @Test(
        "withdraw and deposit rules are a usage error, naming where they work",
        arguments: ["XRP withdraw closed", "bithumb:XRP deposit closed"])
    func refused(rule: String) async {
        let run = await runCLI(["record", "XRP", "-e", "bithumb", "--count", "1", "--alert", rule])
        #expect(run.status == 64)
        #expect(
            run.errorLines == [
                "agg: --alert '\(rule)': agg record does not ask transfer status; withdraw and deposit alerts "
                    + "are on agg watch and agg premium --watch"
            ])
        #expect(run.output == "")
    }
}
