/// A request rate for people: `150`, `0.5`.
package enum RateText {
    package static func format(_ rate: Double) -> String {
        rate == rate.rounded() && abs(rate) < 1e15 ? String(Int(rate)) : String(rate)
    }
}
