import AggCore
import Bithumb
import ExchangeRate

/// Every source agg knows: one line per adapter. The only list of adapters in the program.
func registerAdapters(in registry: inout AdapterRegistry) {
    registry.register(BithumbAdapter.self)
    registry.register(ExchangeRateAdapter.self)
}
