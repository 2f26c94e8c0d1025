import AggCore
import AggOptions
import AggServer

/// `agg serve`'s own options and limits, which `ServeCommand.spec` lists and `ServeRequest`
/// reads.
enum ServeOptions {
    static let listen = Setting(
        Option<ListenAddress>(
            "listen", value: "ADDRESS", help: "",
            parser: ValueParser(expected: "an IP address and port such as 127.0.0.1:8080 or [::1]:8080") {
                ListenAddress.parse($0)
            }),
        help: "Listen on this address and port", builtIn: .standard, shown: \.description)
    static let interval = Setting(
        Option<Double>(
            "interval", short: "i", value: "DURATION", help: "",
            parser: .seconds(in: 1...86_400, expected: "seconds, such as 5 or 1m")),
        help: "Seconds between polls, never faster than a venue's rate limit allows",
        builtIn: DecidedPerRun("\(Int(defaultInterval))s, or longer when a venue's rate limit needs it"))
    static let token = Option<String>(
        "token", value: "TOKEN",
        help:
            "Require 'Authorization: Bearer TOKEN'; required beyond loopback. Visible in ps: prefer --token-file or AGG_TOKEN.",
        parser: ValueParser(expected: ServeToken.expected) { text throws(AggError) in try ServeToken.parseFlag(text) })
    static let tokenFile = Option<String>(
        "token-file", value: "PATH",
        help: "Read the token from PATH (one line of 16 to 256 printable characters), out of sight of ps.",
        parser: ValueParser(expected: "a file path") { $0.isEmpty ? nil : $0 })
    static let fx = Setting(
        Option<[String]>(
            "fx", value: "ID[,ID...]", help: "", completion: .exchangeIDs,
            parser: .list(of: .venueID, expected: "FX source ids such as frankfurter"), combine: +),
        help: "Poll only these FX sources (frankfurter, the ECB's rates, suits a shared service)",
        builtIn: DecidedPerRun("every FX source"))
    static let coins = Setting(
        Option<[String]>(
            "coins", value: "SYMBOL[,SYMBOL...]", help: "",
            parser: .list(of: .assetCode, expected: "coins such as BTC,ETH"), combine: +),
        help: "Coins to poll one by one on venues without an all-tickers request", builtIn: ["BTC", "ETH"],
        shown: { $0.joined(separator: ",") })

    static let noStream = Flag(
        "no-stream",
        help: "Poll every venue over REST instead of following the live streams of the venues that have one")

    /// The default poll interval in seconds.
    static let defaultInterval: Double = 5
    /// Event-stream clients at once, and the events queued for each before it is dropped.
    static let maximumStreams = 64
    static let streamQueue = 8
    /// Seconds a stop waits for requests in flight before it cuts them.
    static let drainSeconds: Double = 5
}
