import AggCore
import AggJSON
import AggOptions

/// `agg exchanges` output: every registered venue and FX source with what it can do.
package struct ExchangesRendering: Rendering {
    var descriptors: [AdapterDescriptor]
    /// The base URL in effect for a venue (environment, config file or default).
    var baseURL: @Sendable (AdapterDescriptor) -> String
    /// Where a venue comes from: built in, a shipped data file or a user's.
    var origin: @Sendable (AdapterDescriptor) -> VenueOrigin

    package func json() -> JSONValue {
        let entries: [JSONValue] = descriptors.map { descriptor in
            [
                "id": .string(descriptor.id),
                "name": .string(descriptor.displayName),
                "country": .string(descriptor.country),
                "homeCurrency": .string(descriptor.homeCurrency),
                "quoteCurrencies": .array(descriptor.quoteCurrencies.map { .string($0) }),
                "capabilities": .array(descriptor.capabilities.sorted().map { .string($0.rawValue) }),
                "requestsPerSecond": .string(RateText.format(descriptor.requestsPerSecond)),
                "baseURL": .string(baseURL(descriptor)),
                "attribution": JSONOutput.string(descriptor.attribution),
                "origin": .string(origin(descriptor).kind),
                "file": JSONOutput.string(origin(descriptor).file),
            ]
        }
        return JSONValue.object(JSONObject([.init(key: "exchanges", value: .array(entries))]))
    }

    package func csv() -> String {
        CSVWriter.render(
            header: [
                "id", "name", "country", "homeCurrency", "quoteCurrencies", "capabilities",
                "requestsPerSecond", "baseURL", "origin", "file",
            ],
            rows: descriptors.map { descriptor in
                [
                    descriptor.id, descriptor.displayName, descriptor.country, descriptor.homeCurrency,
                    descriptor.quoteCurrencies.joined(separator: " "),
                    descriptor.capabilities.sorted().map(\.rawValue).joined(separator: " "),
                    RateText.format(descriptor.requestsPerSecond), baseURL(descriptor),
                    origin(descriptor).kind, origin(descriptor).file ?? "",
                ]
            })
    }

    package func table(width: Int, style: TextStyle) -> String {
        var table = TextTable(columns: [
            .init("ID"), .init("NAME", priority: 3), .init("COUNTRY", priority: 2), .init("QUOTES"),
            .init("CAPABILITIES", priority: 4), .init("REQ/S", .right, priority: 1),
            .init("BASE URL", priority: 1), .init("FROM", priority: 5),
        ])
        for descriptor in descriptors {
            table.append(texts: [
                descriptor.id, descriptor.displayName, descriptor.country,
                // An FX source quotes no markets.
                descriptor.quoteCurrencies.isEmpty ? "-" : descriptor.quoteCurrencies.joined(separator: ","),
                descriptor.capabilities.sorted().map(\.rawValue).joined(separator: ","),
                RateText.format(descriptor.requestsPerSecond), baseURL(descriptor), origin(descriptor).title,
            ])
        }
        return table.render(width: width, style: style)
    }

    package init(
        descriptors: [AdapterDescriptor], baseURL: @escaping @Sendable (AdapterDescriptor) -> String,
        origin: @escaping @Sendable (AdapterDescriptor) -> VenueOrigin
    ) {
        self.descriptors = descriptors
        self.baseURL = baseURL
        self.origin = origin
    }
}
