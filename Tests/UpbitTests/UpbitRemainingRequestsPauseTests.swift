import AggCore
import Testing
import Upbit

@Suite("Upbit quota pauses the rate limiter")
struct UpbitPauseTests {
    func response(_ header: String?) -> HTTPResponse {
        HTTPResponse(
            status: 200, headers: header.map { [HTTPHeader(name: "Remaining-Req", value: $0)] } ?? [], body: [],
            url: "https://api.upbit.com/v1/ticker")
    }

    @Test(
        "sec=0 holds the next request for a second; anything else goes on",
        arguments: [
            ("group=ticker; min=600; sec=0", 1.0),
            ("group=ticker; min=600; sec=9", nil),
            ("group=market; sec=1", nil),
            ("garbage", nil),
            (nil, nil),
        ] as [(String?, Double?)])
    func pause(header: String?, expected: Double?) {
        #expect(UpbitAdapter.pauseAfter(response(header)) == expected)
    }
}
