import FoundationEssentials

/// How USDT, a coin that tracks the US dollar, is valued when prices are converted.
public enum StablecoinValuation: String, Sendable, CaseIterable {
    /// One USDT is worth one US dollar: the FX source's USD rate is used for it.
    case assume
    /// One USDT is worth what a Korean venue's USDT/KRW market says.
    case market
}

/// A number a conversion needs besides a venue's own price.
public enum RateInput: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// Units of `currency` per US dollar, from an FX source (`fx("KRW")` is USD→KRW).
    case fx(String)
    /// The KRW price of one USDT on a Korean venue.
    case usdtInKRW

    /// `USD→KRW`, `USDT→KRW`.
    public var description: String {
        switch self {
        case .fx(let currency): "\(Conversion.fxBase)→\(currency)"
        case .usdtInKRW: "USDT→KRW"
        }
    }

    public static func < (lhs: RateInput, rhs: RateInput) -> Bool {
        switch (lhs, rhs) {
        case (.fx(let left), .fx(let right)): left < right
        case (.fx, .usdtInKRW): true
        case (.usdtInKRW, _): false
        }
    }
}

/// The value of a `RateInput` and where it came from.
public struct RateValue: Sendable, Equatable {
    public var value: Decimal
    /// Who published it: an FX adapter id, or `upbit USDT/KRW`.
    public var source: String
    /// When the source produced it, if known.
    public var asOf: Timestamp?

    public init(value: Decimal, source: String, asOf: Timestamp?) {
        self.value = value
        self.source = source
        self.asOf = asOf
    }
}

/// Converting prices from one currency into another, kept as an exact fraction of inputs.
///
/// Every currency is valued in US dollars: USD itself is 1; a fiat currency C is 1 / (USD→C);
/// USDT is 1 (`assume`) or (USDT→KRW) / (USD→KRW) (`market`); USDC is always 1. The factor from
/// `from` to `to` is value(from) / value(to), and inputs that appear above and below the line
/// cancel, so that USD→KRW is a plain multiplication by the FX rate and USDT→KRW at the market
/// is a multiplication by the USDT/KRW price: exact. Only a factor with inputs left below the
/// line (KRW→USD) divides; its quotient is rounded to `quotientScale` decimals.
public struct Conversion: Sendable, Equatable {
    /// The base of the FX tables conversions read (`USD→KRW` is units of KRW per USD).
    public static let fxBase = "USD"
    /// Quote currencies whose worth follows the US dollar.
    public static let dollarStablecoins: Set<String> = ["USDT", "USDC"]
    /// The decimals a quotient that does not terminate is rounded to.
    public static let quotientScale = 12

    public let from: String
    public let to: String
    /// Inputs multiplied in, sorted.
    public let numerator: [RateInput]
    /// Inputs divided by, sorted.
    public let denominator: [RateInput]

    /// The conversion from `from` into `to`, with USDT valued as `stablecoins` says.
    public init(from: String, to: String, stablecoins: StablecoinValuation) {
        self.from = from
        self.to = to
        guard from != to else {
            numerator = []
            denominator = []
            return
        }
        let source = Self.dollarValue(of: from, stablecoins: stablecoins)
        let target = Self.dollarValue(of: to, stablecoins: stablecoins)
        var above = source.numerator + target.denominator
        var below = source.denominator + target.numerator
        for input in above {
            if let index = below.firstIndex(of: input), let aboveIndex = above.firstIndex(of: input) {
                below.remove(at: index)
                above.remove(at: aboveIndex)
            }
        }
        numerator = above.sorted()
        denominator = below.sorted()
    }

    /// What one unit of `currency` is worth in US dollars, as inputs above and below the line.
    private static func dollarValue(of currency: String, stablecoins: StablecoinValuation)
        -> (numerator: [RateInput], denominator: [RateInput])
    {
        if currency == fxBase { return ([], []) }
        if currency == "USDT", stablecoins == .market { return ([.usdtInKRW], [.fx("KRW")]) }
        if dollarStablecoins.contains(currency) { return ([], []) }
        return ([], [.fx(currency)])
    }

    /// Whether the factor is 1 without any input.
    public var isIdentity: Bool { numerator.isEmpty && denominator.isEmpty }

    /// Every input the conversion reads.
    public var inputs: Set<RateInput> { Set(numerator + denominator) }

    /// Whether `from` is a dollar stablecoin valued as one dollar here.
    public var assumesDollarStablecoin: Bool {
        from != to && Self.dollarStablecoins.contains(from) && !inputs.contains(.usdtInKRW)
    }

    /// Why an input cannot be used.
    public enum Problem: Sendable, Equatable, CustomStringConvertible {
        /// No value was had for it.
        case missing(RateInput)
        /// Its value is zero or negative: it would make every price zero (or negative), or be
        /// divided by.
        case notPositive(RateInput, RateValue)

        /// `no USD→KRW rate`; `the USD→KRW rate from exchangerate is 0: a rate must be above zero`.
        public var description: String {
            switch self {
            case .missing(let input): "no \(input) rate"
            case .notPositive(let input, let value):
                "the \(input) rate from \(value.source) is \(value.value): a rate must be above zero"
            }
        }
    }

    /// The inputs `values` lacks, sorted.
    public func missing(in values: [RateInput: RateValue]) -> [RateInput] {
        inputs.filter { values[$0] == nil }.sorted()
    }

    /// Every input that cannot be used, missing or not above zero, sorted by input.
    public func problems(in values: [RateInput: RateValue]) -> [Problem] {
        inputs.sorted().compactMap { input in
            guard let value = values[input] else { return .missing(input) }
            return value.value > 0 ? nil : .notPositive(input, value)
        }
    }

    /// The factor from `from` to `to`, or `nil` when an input cannot be used (`problems(in:)`).
    public func rate(_ values: [RateInput: RateValue]) -> Decimal? {
        convert(1, values)
    }

    /// `price` in `to`, or `nil` when an input cannot be used (`problems(in:)` says why).
    public func convert(_ price: Decimal, _ values: [RateInput: RateValue]) -> Decimal? {
        guard problems(in: values).isEmpty else { return nil }
        var result = price
        for input in numerator {
            guard let value = values[input]?.value else { return nil }
            result *= value
        }
        guard !denominator.isEmpty else { return result }
        var divisor: Decimal = 1
        for input in denominator {
            guard let value = values[input]?.value else { return nil }
            divisor *= value
        }
        return DecimalRounding.rounded(result / divisor, places: Self.quotientScale)
    }
}
