import AggCore
import AggOptions

/// `agg record`'s own options, which `RecordCommand.spec` lists and `RecordRequest` reads.
enum RecordOptions {
    static let premium = Flag(
        "premium", help: "Also record the premium board (each KRW venue's premium, both bases).")
    static let interval = Setting(
        Option<Double>(
            "interval", short: "i", value: "SECONDS", help: "",
            parser: .seconds(in: 1...86_400, expected: "seconds, such as 10 or 1m")),
        help:
            "Seconds between ticks, at least 1 (10s, 1m); a venue whose rate limit needs longer is fetched every few ticks",
        builtIn: RecordRequest.defaultInterval, shown: ValueParser<Double>.durationText)
    static let retain = Setting(
        Option<Int64>(
            "retain", value: "DURATION", help: "",
            parser: .duration(minimum: 60, expected: "a duration such as 30d, 12h or 3600, at least 60 s")),
        help: "Delete recorded rows older than this, at least 1m", builtIn: RecordRequest.defaultRetainSeconds,
        shown: { ValueParser<Double>.durationText(Double($0)) })
    static let count = Setting(
        Option<Int>(
            "count", short: "c", value: "N", help: "",
            parser: .wholeNumber(in: 1...Int.max, expected: "a whole number of ticks, 1 or more")),
        help: "Stop after N ticks", builtIn: DecidedPerRun("until Ctrl-C or SIGTERM"))
    static let events = Flag(
        "events",
        help: "Also record market events (listings, cautions, warnings, notices, transfers) on each source's own "
            + "schedule, for agg events.")
    static let quiet = Flag("quiet", help: "Print no progress (failures still go to stderr).")
    static let stream = Flag(
        "stream",
        help:
            "Follow the named coins on the venues' live streams and sample them each tick; REST only while a stream is down"
    )
}
