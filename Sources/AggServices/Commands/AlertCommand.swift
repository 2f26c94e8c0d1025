import AggCore
import AggOptions

/// `agg alert test`: sends one sample alert to each `--notify` destination and says what it
/// answered.
package enum AlertCommand {
    package static let spec = CommandSpec(
        name: "alert",
        summary: "Send a sample alert to each --notify destination and show its answer.",
        arguments: "test",
        options: [Settings.notify, Settings.notifySecretFile],
        positionals: (1, 1),
        examples: [
            "agg alert test --notify https://example.com/hook --notify-secret-file hook.secret",
            "AGG_TELEGRAM_TOKEN_FILE=bot.token agg alert test --notify telegram://-1001234567890",
        ],
        discussion: """
            The sample alert is the one a rule 'upbit:BTC last > 0' would send for a price of 1,
            made and signed exactly as agg watch, agg premium --watch and agg record send theirs
            (with the words 'agg alert test'). Without --notify the config file's notify list is
            used. Each destination is tried as an alert is: retried on 5xx, 429 and failed
            connections with backoff, Retry-After honoured. One line per destination on stdout:
            its name (without secrets), delivered|refused|failed|unreachable, the HTTP status
            and the start of its answer. Exit status: 0 when every destination answered 2xx, 69
            when one could not be reached or still answered 5xx or 429 after the retries, else
            65 when one refused the alert (another 4xx: a wrong chat id or token). See
            docs/alerts.md.
            """,
        positionalChoices: ["test"]
    )
}
