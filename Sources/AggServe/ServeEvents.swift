import AggCore
import AggOptions
import AggServer
import AggServices

/// `/v1/events?since=7d&kind=listed,notice&venue=upbit&symbol=XRP`: the market events stored in
/// the history store (what `agg record --events` records; `agg serve` reads them, it does not
/// observe the venues' event sources itself), as `agg events --format json` prints them: the
/// query becomes `agg events`'s command line and is checked by its spec and `EventsRequest`.
extension ServeEndpoints {
    static let eventsQuery = QueryMap(
        positional: "symbol", options: ["since": "since", "kind": "kind", "venue": "exchange"])

    /// The events `arguments` select from `store`, as JSON and a newline.
    func events(_ arguments: [HTTPServerRequest.Argument], store: any EventStore) async throws(AggError) -> String {
        let parsed = try ArgumentParser.parse(
            ["--format", "json"] + (try Self.commandLine(arguments, map: Self.eventsQuery)), spec: EventsCommand.spec)
        let request = try EventsRequest(parsed, context: context)
        return EventsRendering(report: try await EventsService(store: store).run(request.query)).jsonLine()
    }
}
