import FoundationEssentials

/// The alert engine with its state kept in a `HistoryStore` (`agg record`), or in memory
/// (`agg watch`, `agg premium --watch`): what a loop calls once per tick.
///
/// With a store, the states are read on the first tick and every change is saved before the
/// tick's alerts are returned; when saving fails the tick is undone (nothing is delivered, the
/// next tick sees the same crossings again) and the error is thrown. Ticks must not overlap:
/// the loop that owns the monitor calls `tick` once at a time.
public struct AlertMonitor: Sendable {
    public private(set) var engine: AlertEngine
    private let store: (any HistoryStore)?
    private var loaded: Bool

    /// A monitor of `rules`; with `store`, its states survive restarts.
    public init(rules: [AlertRule], settings: AlertSettings = AlertSettings(), store: (any HistoryStore)? = nil) {
        engine = AlertEngine(rules: rules, settings: settings)
        self.store = store
        loaded = store == nil
    }

    /// Evaluates the tick's `observations` at `time` and answers the alerts to deliver.
    public mutating func tick(_ observations: AlertObservations, at time: Timestamp) async throws(AggError)
        -> [Alert]
    {
        try await evaluate(observations, at: time).alerts
    }

    /// Evaluates the tick's `observations` at `time`: the alerts to deliver, and the crossings
    /// the cooldown held back.
    public mutating func evaluate(_ observations: AlertObservations, at time: Timestamp) async throws(AggError)
        -> AlertEvaluation
    {
        if !loaded, let store {
            let states = try await store.alertStates()
            engine = AlertEngine(rules: engine.rules, settings: engine.settings, states: states)
            loaded = true
        }
        let before = engine
        let evaluation = engine.evaluate(observations, at: time)
        if let store, !evaluation.changed.isEmpty {
            do throws(AggError) {
                try await store.saveAlertStates(evaluation.changed)
            } catch {
                engine = before
                throw error
            }
        }
        return evaluation
    }
}
