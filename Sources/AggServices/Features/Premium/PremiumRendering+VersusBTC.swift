import AggCore
import AggJSON
import FoundationEssentials

/// `premVsBTC`: each coin's premium minus BTC's on the same venue, so that a coin's own premium
/// is told apart from the won's (every coin on a Korean venue carries the won's premium; BTC's
/// is the cleanest measure of it). Both premiums are the board's (FX basis, two decimals), so
/// the difference is exact to two decimals. It is `null` for BTC itself, and when BTC or the
/// coin has no premium on that venue.
extension PremiumRendering {
    /// The coin whose premium the others are measured against.
    static let versusCoin = "BTC"

    /// BTC's premium on each venue of the board (FX basis), by exchange id, whether or not BTC's
    /// row is among those shown.
    var btcPremiums: [String: Decimal] {
        guard let btc = result.board?.rows.first(where: { $0.base == Self.versusCoin }) else { return [:] }
        var premiums: [String: Decimal] = [:]
        for venue in btc.venues {
            if let percent = venue.premiumPercent { premiums[venue.exchange] = percent }
        }
        return premiums
    }

    /// `venue`'s premium of `base` minus BTC's on the same venue; `nil` for BTC and when either
    /// is missing.
    static func premiumVersusBTC(base: String, venue: PremiumBoard.VenuePrice, btc: [String: Decimal]) -> Decimal? {
        guard base != versusCoin, let premium = venue.premiumPercent, let reference = btc[venue.exchange] else {
            return nil
        }
        return premium - reference
    }

    /// `object` (a venue of the JSON rows) followed by `"premVsBTC"`: a decimal string with two
    /// decimals, or null.
    static func withVersusBTC(_ object: JSONValue, base: String, venue: PremiumBoard.VenuePrice, btc: [String: Decimal])
        -> JSONValue
    {
        guard case .object(var members) = object else { return object }
        let value = premiumVersusBTC(base: base, venue: venue, btc: btc)
        members.members.append(
            .init(
                key: "premVsBTC",
                value: value.map { .string(DecimalFormatting.fixed($0, places: 2, grouping: false)) } ?? .null))
        return .object(members)
    }
}
