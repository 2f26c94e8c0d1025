/// The request rates agg accepts for a venue, and why a venue file's rate is refused.
///
/// A rate outside the range is refused where it is declared (a venue file: exit 78 naming the
/// file and `$.requestsPerSecond`), so that no interval, wait or count computed from it can
/// overflow: the slowest venue waits 1,000 s between requests, the fastest 1 ms.
public enum RequestRate {
    /// One request every 1,000 seconds.
    public static let minimum = 0.001
    /// A thousand requests a second.
    public static let maximum = 1000.0

    /// Whether `rate` is a number in `minimum...maximum`.
    public static func isAccepted(_ rate: Double) -> Bool {
        (minimum...maximum).contains(rate)
    }

    /// `rate` brought into `minimum...maximum` (the minimum for NaN), for arithmetic that must
    /// not trap whatever it is given.
    public static func clamped(_ rate: Double) -> Double {
        rate.isNaN ? minimum : min(maximum, max(minimum, rate))
    }
}

/// A venue's declared request rate is outside `RequestRate.minimum...RequestRate.maximum`.
public struct RequestRateError: Error, Sendable, Equatable, CustomStringConvertible {
    public var rate: Double

    public init(rate: Double) {
        self.rate = rate
    }

    public static func == (lhs: RequestRateError, rhs: RequestRateError) -> Bool {
        lhs.rate == rhs.rate || (lhs.rate.isNaN && rhs.rate.isNaN)
    }

    public var description: String {
        "expected a number of requests a second from 0.001 to 1000, found \(rate)"
    }
}

extension AdapterDescriptor {
    /// Throws when `requestsPerSecond` is outside the accepted range (`RequestRate`); a venue
    /// loader reports it as a configuration error of the file that declared it.
    public func checkRequestRate() throws(RequestRateError) {
        guard RequestRate.isAccepted(requestsPerSecond) else { throw RequestRateError(rate: requestsPerSecond) }
    }
}
