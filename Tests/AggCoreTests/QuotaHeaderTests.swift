import AggCore
import Testing

@Suite("Quota headers")
struct QuotaHeaderTests {
    func response(_ name: String, _ value: String?) -> HTTPResponse {
        HTTPResponse(
            status: 200, headers: value.map { [HTTPHeader(name: name, value: $0)] } ?? [], body: [],
            url: "https://venue.test/ticker")
    }

    @Test(
        "Remaining-Req: sec=0 holds the next request for a second; anything else goes on",
        arguments: [
            ("group=ticker; min=600; sec=0", 1.0),
            ("group=ticker; min=600; sec=9", nil),
            ("group=market; sec=1", nil),
            ("garbage", nil),
            (nil, nil),
        ] as [(String?, Double?)])
    func remainingReqPause(header: String?, expected: Double?) {
        #expect(QuotaHeader.remainingReq.pause(after: response("Remaining-Req", header)) == expected)
        #expect(QuotaHeader.remainingReq.pause(after: response("remaining-req", header)) == expected)
    }

    @Test(
        "Ratelimit: remaining=0 holds the next request until the reset, at least a second; anything else goes on",
        arguments: [
            ("limit=50, remaining=0, reset=1", 1.0),
            ("limit=50, remaining=0, reset=3", 3.0),
            ("remaining=0,reset=2,limit=50", 2.0),
            ("limit=50, remaining=0, reset=0", 1.0),
            ("limit=50, remaining=48, reset=1", nil),
            ("limit=50, remaining=0", nil),
            ("garbage", nil),
            (nil, nil),
        ] as [(String?, Double?)])
    func rateLimitPause(header: String?, expected: Double?) {
        #expect(QuotaHeader.rateLimit.pause(after: response("Ratelimit", header)) == expected)
    }

    @Test("each format reads only its own header")
    func ownHeaderOnly() {
        #expect(QuotaHeader.remainingReq.pause(after: response("Ratelimit", "limit=50, remaining=0, reset=1")) == nil)
        #expect(QuotaHeader.rateLimit.pause(after: response("Remaining-Req", "group=ticker; sec=0")) == nil)
    }

    @Test(
        "Remaining-Req parses into group, per-second and per-minute counts",
        arguments: [
            ("group=ticker; min=600; sec=9", RemainingRequests(group: "ticker", perSecond: 9, perMinute: 600)),
            ("group=default; min=1800; sec=29", RemainingRequests(group: "default", perSecond: 29, perMinute: 1800)),
            ("group=market;sec=0", RemainingRequests(group: "market", perSecond: 0)),
            ("sec=3; group=ticker; min=600", RemainingRequests(group: "ticker", perSecond: 3, perMinute: 600)),
            (
                " group=ticker ; min=600 ; sec=9 ; extra=1",
                RemainingRequests(group: "ticker", perSecond: 9, perMinute: 600)
            ),
        ])
    func remainingReqParses(header: String, expected: RemainingRequests) {
        #expect(RemainingRequests(header: header) == expected)
    }

    @Test(
        "Remaining-Req without a group or a whole sec count is rejected",
        arguments: [
            "", "group=ticker; min=600", "min=600; sec=9", "group=; sec=9", "group=ticker; sec=nine",
            "group=ticker; sec=-1", "group=ticker; sec=+1", "group=ticker; min=x; sec=9", "group=ticker; sec",
            "group=a; group=b; sec=1",
        ])
    func remainingReqRejects(header: String) {
        #expect(RemainingRequests(header: header) == nil)
    }

    @Test(
        "Ratelimit parses limit, remaining and reset in any order, ignoring unknown fields",
        arguments: [
            ("limit=50, remaining=48, reset=1", RateLimitWindow(limit: 50, remaining: 48, reset: 1)),
            ("reset=1,limit=50,remaining=0", RateLimitWindow(limit: 50, remaining: 0, reset: 1)),
            (" limit=50 , remaining=7 , reset=1 , policy=x", RateLimitWindow(limit: 50, remaining: 7, reset: 1)),
        ])
    func rateLimitParses(header: String, expected: RateLimitWindow) {
        #expect(RateLimitWindow(header: header) == expected)
    }

    @Test(
        "Ratelimit without all three whole counts is rejected",
        arguments: [
            "", "limit=50, remaining=48", "limit=50, remaining=-1, reset=1", "limit=50, remaining=x, reset=1",
            "limit=50; remaining=48; reset=1", "limit=50, limit=51, remaining=1, reset=1",
            "limit, remaining=1, reset=1",
        ])
    func rateLimitRejects(header: String) {
        #expect(RateLimitWindow(header: header) == nil)
    }
}
