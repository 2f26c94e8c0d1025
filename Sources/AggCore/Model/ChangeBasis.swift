/// What a venue measures its change against, so that a change is never read as 24 hours when it
/// is not.
///
/// The raw value is what JSON and CSV print.
public enum ChangeBasis: String, Sendable, Equatable, CaseIterable {
    /// Against the price 24 hours ago, whatever the time now (Bithumb `fluctate_24H`, Binance
    /// `priceChange`, Coinbase's stats `open`).
    case rolling24h
    /// Against the previous close at 00:00 UTC (Upbit `signed_change_price`): at 09:01 in Korea
    /// it covers one minute.
    case sinceUTCMidnight
}
