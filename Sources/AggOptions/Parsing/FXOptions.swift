import AggCore

/// `--fx SOURCE` and `--max-fx-age DURATION` as `premium` and `compare` take them: which FX
/// source a premium is computed with, and how old its rate may be (`FXChoice`).
package struct FXOptions: Sendable {
    /// The FX source named with `--fx`; `nil` for the freshest that answered.
    package var source: String?
    /// `--max-fx-age` in seconds, `FXChoice.defaultMaximumAgeSeconds` by default.
    package var maximumAgeSeconds: Int64

    /// The options' values; `--fx` must name a registered FX source (usage error otherwise).
    package init(_ arguments: ParsedArguments, registry: AdapterRegistry) throws(AggError) {
        source = try arguments.flag(CommonOptions.fxSource).map { id throws(AggError) in
            let descriptor = try registry.requireDescriptor(id: id)
            guard descriptor.supports(.fxRates) else { throw .usage("\(descriptor.id) is not an FX source") }
            return descriptor.id
        }
        maximumAgeSeconds = arguments.value(CommonOptions.maxFXAge)
    }

    /// The FX sources to ask among `registered`: only the one named with `--fx`, else all.
    package func sources(among registered: [AdapterDescriptor]) -> [AdapterDescriptor] {
        registered.filter { source == nil || $0.id == source }
    }
}
