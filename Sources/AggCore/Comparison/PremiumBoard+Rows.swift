import FoundationEssentials

extension PremiumBoard {
    /// This board with the rows of `bases` made again from `quotes`, every other row kept as it
    /// is: the live board (`agg premium --watch --stream`) recomputes only the coins whose
    /// prices changed. A coin of `bases` that no longer has a local and a global price leaves
    /// the board; one that now has both joins it, in coin order.
    ///
    /// `quotes` must hold every quote of the coins in `bases` and every local venue's USDT
    /// quote (the tether line is made again from them). A local venue's USDT price enters every
    /// row of that venue (its USDT premium): when it changes, pass every coin. The result is
    /// then the board `init(currency:quotes:fx:maximumDeviationPercent:)` makes of all the
    /// quotes.
    public func recomputing(
        _ bases: Set<String>, from quotes: [Quote], maximumDeviationPercent: Decimal = defaultMaximumDeviationPercent
    ) -> PremiumBoard {
        let inputs = Inputs(quotes, currency: currency)
        let tether = Self.tether(inputs.usdt, fx: fx.value)
        var rows = self.rows.filter { !bases.contains($0.base) }
        rows += inputs.rows(of: bases.sorted(), fx: fx.value, bound: maximumDeviationPercent)
        rows.sort { $0.base < $1.base }
        return PremiumBoard(
            currency: currency, fx: fx, tether: tether,
            tetherPremiumPercent: PriceComparison.median(tether.map(\.premiumPercent)), rows: rows)
    }
}
