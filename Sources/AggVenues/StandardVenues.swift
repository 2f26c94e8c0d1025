// The one list of the venues agg ships. `agg`, `agg-bench` and the tests that go through every
// venue use it; adding a venue adds its line here (Tools/scaffold-adapter.sh does it).
import AggCore
import Binance
import Bithumb
import Coinbase
import Coinone
import Dunamu
import ExchangeRate
import Frankfurter
import Korbit
import Kraken
import OKX
import Upbit

extension AdapterRegistry {
    /// Every venue agg ships, one registration a line.
    public static let standard = AdapterRegistry([
        AdapterRegistration(BithumbAdapter.self),
        AdapterRegistration(UpbitAdapter.self),
        AdapterRegistration(BinanceAdapter.self),
        AdapterRegistration(CoinbaseAdapter.self),
        AdapterRegistration(ExchangeRateAdapter.self),
        AdapterRegistration(FrankfurterAdapter.self),
        AdapterRegistration(DunamuAdapter.self),
        AdapterRegistration(CoinoneAdapter.self),
        AdapterRegistration(KorbitAdapter.self),
        AdapterRegistration(KrakenAdapter.self),
        AdapterRegistration(OKXAdapter.self),
    ])
}
