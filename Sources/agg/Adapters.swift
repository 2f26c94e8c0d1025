import AggCore
import Binance
import Bithumb
import Coinbase
import ExchangeRate
import Upbit

/// Every source agg knows: one line per adapter. The only list of adapters in the program.
func registerAdapters(in registry: inout AdapterRegistry) {
    registry.register(BithumbAdapter.self)
    registry.register(UpbitAdapter.self)
    registry.register(BinanceAdapter.self)
    registry.register(CoinbaseAdapter.self)
    registry.register(ExchangeRateAdapter.self)
}
