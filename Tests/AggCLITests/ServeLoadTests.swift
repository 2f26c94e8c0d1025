import AggCore
import AggServer
import AggTestKit
import Foundation
import Testing

@testable import AggCLI
@testable import AggServe

/// `agg serve` under clients: upstream requests per poll do not depend on how many clients ask,
/// the board streams to event-stream clients, a client that does not read holds up nobody, and
/// `/metrics` says what was polled.
@Suite("agg serve: one poll shared by every client")
struct ServeLoadTests {
    static let paths = [
        "/v1/quote?symbol=BTC", "/v1/quote?symbol=ETH&exchange=upbit", "/v1/compare?symbol=BTC", "/v1/premium",
        "/v1/rates?base=USD&to=KRW&source=all", "/v1/status?symbol=ETH", "/v1/exchanges", "/metrics", "/healthz",
    ]

    @Test("upstream requests per poll are the same with 1 and with 100 concurrent clients")
    func upstreamIndependentOfClients() async throws {
        // A clock that stands still: the FX source is asked on the first poll only (FXSchedule),
        // however long the test takes.
        let clock = FakeClock()
        let harness = try ServeHarness(now: { clock.now })
        await harness.poll()
        let before = harness.upstreamRequests
        for path in Self.paths { #expect((try await harness.get(path)).status == 200) }
        #expect(harness.upstreamRequests == before)
        await harness.poll()
        let onePoll = harness.upstreamRequests - before
        // The FX source is not asked again until it is due (FXSchedule): the venues only.
        #expect(
            harness.fixtures.requests[before...].map(\.path).sorted() == [
                "/binance/api/v3/ticker/24hr", "/bithumb/public/assetsstatus/multichain/ALL",
                "/bithumb/public/ticker/ALL_KRW", "/bithumb/v2/fee/inout/ALL", "/coinbase/products/BTC-USD/stats",
                "/coinbase/products/BTC-USD/ticker",
                "/coinbase/products/ETH-USD/stats", "/coinbase/products/ETH-USD/ticker", "/upbit/v1/market/all",
                "/upbit/v1/ticker/all",
            ])
        let statuses = await withTaskGroup(of: Int.self) { group in
            for index in 0..<100 {
                let path = Self.paths[index % Self.paths.count]
                group.addTask { (try? await harness.get(path).status) ?? 0 }
            }
            var statuses: [Int] = []
            for await status in group { statuses.append(status) }
            return statuses
        }
        #expect(statuses == Array(repeating: 200, count: 100))
        let afterClients = harness.upstreamRequests
        #expect(afterClients == before + onePoll)
        await harness.poll()
        #expect(harness.upstreamRequests - afterClients == onePoll)
    }

    @Test("the event stream sends the current board, then each new one")
    func streamDeliversUpdates() async throws {
        let harness = try ServeHarness()
        await harness.poll()
        let board = try await harness.get("/v1/premium").text
        let port = harness.port
        let reader = Task { try await RawHTTPClient.events(port: port, "/v1/stream", count: 2) }
        while harness.runtime.streams.subscriberCount == 0 { try await Task.sleep(for: .milliseconds(10)) }
        await harness.poll()
        let events = try await reader.value
        let updated = try await harness.get("/v1/premium").text
        #expect(board != updated)
        #expect(events == [String(board.dropLast()), String(updated.dropLast())])
    }

    @Test("a stream client that never reads does not hold up other clients")
    func slowClientBlocksNobody() async throws {
        let harness = try ServeHarness(streamQueue: 1)
        await harness.poll()
        let idle = try await RawHTTPClient.openIdle(
            port: harness.port, request: "GET /v1/stream HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        defer { close(idle) }
        while harness.runtime.streams.subscriberCount == 0 { try await Task.sleep(for: .milliseconds(10)) }
        let port = harness.port
        let reader = Task { try await RawHTTPClient.events(port: port, "/v1/stream", count: 4) }
        while harness.runtime.streams.subscriberCount < 2 { try await Task.sleep(for: .milliseconds(10)) }
        for _ in 0..<3 { await harness.poll() }
        #expect(try await reader.value.count == 4)
        let started = ContinuousClock.now
        #expect((try await harness.get("/v1/quote?symbol=BTC")).status == 200)
        #expect(ContinuousClock.now - started < .seconds(1))
    }

    @Test("/metrics: the polled prices, rates and sources, exactly; the request counters and histograms")
    func metrics() async throws {
        // A clock at 2024-08-08T08:13:20Z: every quote's age is fixed.
        let harness = try ServeHarness(
            registry: fixedRegistry(["coinbase", "frankfurter"]), arguments: ["--fx", "frankfurter"],
            now: { Timestamp(millisecondsSince1970: 1_723_104_800_000) })
        let snapshot = await harness.poll()
        let answer = try await harness.get("/metrics")
        #expect(answer.status == 200)
        #expect(answer.header("content-type") == "text/plain; version=0.0.4; charset=utf-8")
        let text = answer.text
        #expect(
            text.hasPrefix(
                """
                # HELP agg_price Last price of a market on a venue, in its quote currency.
                # TYPE agg_price gauge
                agg_price{exchange="coinbase",symbol="BTC",quote="USD"} 58431.29
                agg_price{exchange="coinbase",symbol="ETH",quote="USD"} 2479.05
                # HELP agg_premium_ratio A local venue's premium over the global reference (0.0251 is 2.51 %), on the fx or usdt basis.
                # TYPE agg_premium_ratio gauge
                # HELP agg_fx_rate Units of quote per one base, from an FX source.
                # TYPE agg_fx_rate gauge
                agg_fx_rate{source="frankfurter",base="USD",quote="AUD"} 1.5312
                agg_fx_rate{source="frankfurter",base="USD",quote="BGN"} 1.7909
                agg_fx_rate{source="frankfurter",base="USD",quote="BRL"} 5.578
                agg_fx_rate{source="frankfurter",base="USD",quote="CAD"} 1.3751
                agg_fx_rate{source="frankfurter",base="USD",quote="CHF"} 0.85633
                agg_fx_rate{source="frankfurter",base="USD",quote="CNY"} 7.1683
                agg_fx_rate{source="frankfurter",base="USD",quote="CZK"} 23.062
                agg_fx_rate{source="frankfurter",base="USD",quote="DKK"} 6.8317
                agg_fx_rate{source="frankfurter",base="USD",quote="EUR"} 0.91567
                agg_fx_rate{source="frankfurter",base="USD",quote="GBP"} 0.78732
                agg_fx_rate{source="frankfurter",base="USD",quote="HKD"} 7.7995
                agg_fx_rate{source="frankfurter",base="USD",quote="HUF"} 364.88
                agg_fx_rate{source="frankfurter",base="USD",quote="IDR"} 16081
                agg_fx_rate{source="frankfurter",base="USD",quote="ILS"} 3.815
                agg_fx_rate{source="frankfurter",base="USD",quote="INR"} 83.96
                agg_fx_rate{source="frankfurter",base="USD",quote="ISK"} 137.99
                agg_fx_rate{source="frankfurter",base="USD",quote="JPY"} 146.53
                agg_fx_rate{source="frankfurter",base="USD",quote="KRW"} 1373.59
                agg_fx_rate{source="frankfurter",base="USD",quote="MXN"} 19.0179
                agg_fx_rate{source="frankfurter",base="USD",quote="MYR"} 4.4638
                agg_fx_rate{source="frankfurter",base="USD",quote="NOK"} 10.8365
                agg_fx_rate{source="frankfurter",base="USD",quote="NZD"} 1.676
                agg_fx_rate{source="frankfurter",base="USD",quote="PHP"} 57.904
                agg_fx_rate{source="frankfurter",base="USD",quote="PLN"} 3.9543
                agg_fx_rate{source="frankfurter",base="USD",quote="RON"} 4.5561
                agg_fx_rate{source="frankfurter",base="USD",quote="SEK"} 10.5741
                agg_fx_rate{source="frankfurter",base="USD",quote="SGD"} 1.3302
                agg_fx_rate{source="frankfurter",base="USD",quote="THB"} 35.562
                agg_fx_rate{source="frankfurter",base="USD",quote="TRY"} 33.492
                agg_fx_rate{source="frankfurter",base="USD",quote="USD"} 1
                agg_fx_rate{source="frankfurter",base="USD",quote="ZAR"} 18.3779
                # HELP agg_source_up 1 when the venue or FX source answered the last poll.
                # TYPE agg_source_up gauge
                agg_source_up{exchange="coinbase"} 1
                agg_source_up{exchange="frankfurter"} 1
                # HELP agg_skipped_entries_total Entries of a venue's all-tickers answers skipped because they did not decode; the others answer.
                # TYPE agg_skipped_entries_total counter
                agg_skipped_entries_total{exchange="coinbase"} 0
                # HELP agg_snapshot_timestamp_seconds When the last poll finished (Unix seconds).
                # TYPE agg_snapshot_timestamp_seconds gauge
                agg_snapshot_timestamp_seconds \(ServeMetrics.seconds(snapshot.time))
                # HELP agg_snapshots_published_total Snapshots published since the start (one per venue answer); the ETag's generation.
                # TYPE agg_snapshots_published_total counter
                agg_snapshots_published_total \(snapshot.generation)
                # HELP agg_quote_timestamp_seconds The newest ticker time a venue sent, kept while it fails (Unix seconds).
                # TYPE agg_quote_timestamp_seconds gauge
                agg_quote_timestamp_seconds{exchange="coinbase"} 1723104734.874
                # HELP agg_quote_age_seconds A quote's age when the snapshot was published: from the venue's time, else from when agg received it (seconds).
                # TYPE agg_quote_age_seconds gauge
                agg_quote_age_seconds{exchange="coinbase",symbol="BTC",quote="USD"} 65.126
                agg_quote_age_seconds{exchange="coinbase",symbol="ETH",quote="USD"} 66.400
                # HELP agg_fx_timestamp_seconds When an FX source's last table was published, kept while it fails (Unix seconds).
                # TYPE agg_fx_timestamp_seconds gauge
                agg_fx_timestamp_seconds{source="frankfurter"} 1723039200
                # HELP agg_upstream_requests_total Requests the poller sent to each venue, by outcome (ok, http_error, error).
                # TYPE agg_upstream_requests_total counter
                agg_upstream_requests_total{exchange="coinbase",outcome="ok"} 4
                agg_upstream_requests_total{exchange="frankfurter",outcome="ok"} 1

                """))
        #expect(text.contains("agg_upstream_request_duration_seconds_count{exchange=\"coinbase\"} 4\n"))
        #expect(text.contains("agg_stream_clients 0\n"))
        // The first scrape is counted once it has been sent.
        var counted = false
        for _ in 0..<100 where !counted {
            counted = harness.runtime.metrics.httpDurations.count("/metrics") == 1
            if !counted { try await Task.sleep(for: .milliseconds(10)) }
        }
        let second = try await harness.get("/metrics").text
        #expect(second.contains("agg_http_requests_total{path=\"/metrics\",status=\"200\"} 1\n"))
        #expect(second.contains("agg_http_request_duration_seconds_count{path=\"/metrics\"} 1\n"))
        #expect(second.contains("agg_http_request_duration_seconds_bucket{path=\"/metrics\",le=\"+Inf\"} 1\n"))
    }

    @Test("premium ratios in /metrics are the board's exact premiums over 100")
    func premiumRatios() async throws {
        let harness = try ServeHarness()
        await harness.poll()
        let text = try await harness.get("/metrics").text
        let lines = text.split(separator: "\n").filter {
            $0.hasPrefix("agg_premium_ratio{") && $0.contains("symbol=\"BTC\"")
        }
        #expect(
            lines == [
                #"agg_premium_ratio{exchange="bithumb",symbol="BTC",basis="fx"} 0.0367"#,
                #"agg_premium_ratio{exchange="bithumb",symbol="BTC",basis="usdt"} 0.0061"#,
                #"agg_premium_ratio{exchange="upbit",symbol="BTC",basis="fx"} 0.0369"#,
                #"agg_premium_ratio{exchange="upbit",symbol="BTC",basis="usdt"} 0.0056"#,
            ])
    }
}
