import FoundationEssentials

/// Summary statistics of one recorded series over a window, and where its latest value stands.
///
/// Definitions (documented in docs/record-and-history.md):
/// - `mean` is the sum of the values over their count, in `Decimal`, rounded half away from zero
///   to two more decimals than the most precise value has (exact whenever the division ends
///   there).
/// - `percentile` is the percentage of the window's values that are less than or equal to the
///   latest value, the latest included: `100 × #{v ≤ latest} / count`, rounded half away from
///   zero to one decimal. The highest value of the window is at 100, the lowest at
///   `100 / count`.
/// - `zScore` is `(latest − mean) / σ`, with σ the population standard deviation
///   (`√(Σ(v − mean)² / count)`, the mean unrounded), rounded half away from zero to two
///   decimals; `nil` when σ is 0 (every value the same, or a single value). The variance is
///   exact in `Decimal`; only the square root and the division are done in `Double`.
public struct SeriesStatistics: Sendable, Equatable {
    public var count: Int
    public var minimum: Decimal
    public var maximum: Decimal
    public var mean: Decimal
    /// The value of the last point.
    public var latest: Decimal
    public var percentile: Decimal
    public var zScore: Decimal?

    public init(
        count: Int, minimum: Decimal, maximum: Decimal, mean: Decimal, latest: Decimal, percentile: Decimal,
        zScore: Decimal?
    ) {
        self.count = count
        self.minimum = minimum
        self.maximum = maximum
        self.mean = mean
        self.latest = latest
        self.percentile = percentile
        self.zScore = zScore
    }

    /// Decimals of the percentile.
    public static let percentilePlaces = 1
    /// Decimals of the z-score.
    public static let zScorePlaces = 2

    /// The statistics of `values` (oldest first, so the last is the latest); `nil` for none.
    public init?(_ values: [Decimal]) {
        guard let latest = values.last, let minimum = values.min(), let maximum = values.max() else { return nil }
        let count = Decimal(values.count)
        let sum = values.reduce(Decimal(0), +)
        let exactMean = sum / count
        let places = values.map { max(0, -Int($0.exponent)) }.max() ?? 0
        let variance =
            values.reduce(Decimal(0)) { total, value in total + (value - exactMean) * (value - exactMean) } / count
        let sigma = (Double(variance.description) ?? 0).squareRoot()
        var zScore: Decimal?
        if sigma > 0, sigma.isFinite, let difference = Double((latest - exactMean).description) {
            // Rounded in Double to whole hundredths, then made an exact Decimal.
            let hundredths = (difference / sigma * 100).rounded(.toNearestOrAwayFromZero)
            if hundredths.isFinite, abs(hundredths) < 1e15 { zScore = Decimal(Int64(hundredths)) / 100 }
        }
        self.init(
            count: values.count, minimum: minimum, maximum: maximum,
            mean: DecimalRounding.rounded(exactMean, places: places + 2), latest: latest,
            percentile: Self.percentile(of: latest, in: values), zScore: zScore)
    }

    /// `100 × #{v ≤ value} / count`, rounded to `percentilePlaces`; 0 for no values.
    public static func percentile(of value: Decimal, in values: [Decimal]) -> Decimal {
        guard !values.isEmpty else { return 0 }
        let atOrBelow = values.filter { $0 <= value }.count
        return DecimalRounding.rounded(
            Decimal(atOrBelow) * 100 / Decimal(values.count), places: percentilePlaces)
    }
}
