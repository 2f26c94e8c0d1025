#!/usr/bin/env bash
# Creates a new venue that builds and passes the whole suite, ready to be filled in with the
# venue's real API:
#   Plugins/<Name>/            APIRouter, <Name>Decoding, <Name>Adapter (descriptor + quote(for:));
#                              only the adapter is `package` (the venue list needs it), the rest
#                              internal
#   Fixtures/<id>/             routes.json, a ticker and a not-found error, contract.json (what
#                              the adapter contract checker asks the venue for) and
#                              expectations.json (what each request sends and answers, exactly:
#                              the venue's tests, run by Tests/AggVenuesTests)
# and registers it: the name in `adapterNames` (Package.swift) and one line in the one venue list,
# Sources/AggVenues/StandardVenues.swift. Nothing else changes: the contract checker, the
# expectations suite and the tests that go through every venue pick the new venue up from that
# list. A venue whose quirks need Swift tests adds Tests/<Name>Tests and its name to
# `adapterTestNames` in Package.swift later (docs/adding-a-venue.md).
#
# Usage: Tools/scaffold-adapter.sh --name Coinone [--id coinone] [--root DIR]
set -euo pipefail

usage() {
    echo "usage: $0 --name Name [--id id] [--root DIR]" >&2
    echo "  Name: the module name, UpperCamelCase letters and digits (Coinone)" >&2
    echo "  id:   the id users type, lower-case letters and digits (default: Name lower-cased)" >&2
    echo "  DIR:  the package root (default: the checkout this script is in)" >&2
    exit 64
}

fail() {
    echo "scaffold-adapter: $*" >&2
    exit 1
}

name=""
id=""
root="$(cd "$(dirname "$0")/.." && pwd)"
while [ $# -gt 0 ]; do
    case "$1" in
        --name) [ $# -ge 2 ] || usage; name="$2"; shift 2 ;;
        --name=*) name="${1#--name=}"; shift ;;
        --id) [ $# -ge 2 ] || usage; id="$2"; shift 2 ;;
        --id=*) id="${1#--id=}"; shift ;;
        --root) [ $# -ge 2 ] || usage; root="$2"; shift 2 ;;
        --root=*) root="${1#--root=}"; shift ;;
        -h|--help) usage ;;
        *) echo "scaffold-adapter: unknown argument '$1'" >&2; usage ;;
    esac
done

[ -n "$name" ] || usage
[[ "$name" =~ ^[A-Z][A-Za-z0-9]{0,39}$ ]] \
    || fail "invalid name '$name': UpperCamelCase letters and digits, starting with a capital (Coinone)"
[ -n "$id" ] || id="$(printf '%s' "$name" | tr '[:upper:]' '[:lower:]')"
[[ "$id" =~ ^[a-z][a-z0-9]{0,39}$ ]] || fail "invalid id '$id': lower-case letters and digits (coinone)"
case "$name" in
    Agg*|Foundation|Testing|Synchronization) fail "'$name' collides with a module agg already uses" ;;
esac

manifest="$root/Package.swift"
venues="$root/Sources/AggVenues/StandardVenues.swift"
[ -f "$manifest" ] || fail "no Package.swift in $root"
[ -f "$venues" ] || fail "no Sources/AggVenues/StandardVenues.swift in $root"
grep -q '^let adapterNames = \[$' "$manifest" || fail "Package.swift has no 'let adapterNames = [' line"
grep -q "^    \"$name\",\$" "$manifest" && fail "'$name' is already in adapterNames"
for path in "Plugins/$name" "Fixtures/$id"; do
    [ -e "$root/$path" ] && fail "$path already exists"
done
grep -rqs "id: \"$id\"" "$root/Plugins" && fail "an adapter with id '$id' already exists"

plugin="$root/Plugins/$name"
fixtures="$root/Fixtures/$id"
mkdir -p "$plugin" "$fixtures"

# Every file below is a template: `__NAME__` and `__ID__` are replaced once it is written.
render() {
    sed -e "s/__NAME__/$name/g" -e "s/__ID__/$id/g" > "$1"
}

render "$plugin/APIRouter.swift" <<'EOF'
import AggCore

/// Every __NAME__ endpoint agg uses; the only place that builds __NAME__ paths, and the map between
/// __NAME__'s market ids and unified markets.
///
/// The scaffold's paths and its `BASE_QUOTE` ids are placeholders: replace them with the venue's
/// own (see the venue's API documentation and docs/adding-a-venue.md). Codes reaching the router
/// come from validated `Market` values, so nothing here needs escaping.
enum APIRouter: VenueRoute, Equatable {
    /// `GET /ticker/{BASE}_{QUOTE}`: one market's ticker.
    case ticker(Market)

    /// The quote currencies agg asks __NAME__ for, the main one first.
    static let quoteCurrencies = ["KRW"]

    /// The path and query after the base URL.
    var path: String {
        switch self {
        case .ticker(let market): "/ticker/\(Self.venueSymbol(market))"
        }
    }

    /// __NAME__'s id for `market`: `BASE_QUOTE`.
    static func venueSymbol(_ market: Market) -> String {
        "\(market.base)_\(market.quote)"
    }

    /// The unified market of a __NAME__ id (`BTC_KRW` → `BTC/KRW`), or `nil` when it is not
    /// `BASE_QUOTE` with valid codes and a quote agg asks for.
    static func market(fromVenueSymbol symbol: String) -> Market? {
        let parts = symbol.split(separator: "_", omittingEmptySubsequences: false)
        guard parts.count == 2, quoteCurrencies.contains(String(parts[1])),
            let base = try? AssetCode.validate(String(parts[0])), base == parts[0]
        else { return nil }
        return Market(base: base, quote: String(parts[1]))
    }
}
EOF

render "$plugin/${name}Decoding.swift" <<'EOF'
import AggCore
import AggJSON

/// Decoding of __NAME__'s answers into the normalized model: pure functions of the parsed body.
///
/// The scaffold reads a placeholder shape (`{"symbol","last","open","high","low","volume",
/// "timestamp"}` and `{"error":{"code","message"}}`): replace it with the venue's real fields.
enum __NAME__Decoding {
    /// The code __NAME__ gives a market it does not list.
    static let notFoundCode = "not_found"

    /// __NAME__'s answers: the data itself, or an error `{"error":{"code":...,"message":...}}`.
    static let envelope = ResponseEnvelope(error: venueError)

    /// The venue error in an answer, if any, with the code and message kept verbatim. (Rate
    /// limits, 429 and 418, are reported by `VenueClient` whatever the body says.)
    static func venueError(in json: JSONCursor, response: HTTPResponse) -> VenueErrorFields? {
        let error = json["error"]
        guard error.isPresent else { return nil }
        return VenueErrorFields(
            code: (try? error["code"].text()) ?? String(response.status), message: (try? error["message"].text()) ?? "")
    }

    /// The ticker of `market`, every price an exact decimal from the text the venue sent; an
    /// answer about another market is a decoding error.
    static func quote(_ ticker: JSONCursor, market: Market) throws(JSONDecodingError) -> Quote {
        let symbolField = ticker["symbol"]
        let symbol = try symbolField.string()
        guard APIRouter.market(fromVenueSymbol: symbol) == market else {
            throw symbolField.failure("asked for \(market), got '\(symbol.prefix(40))'")
        }
        return Quote(
            exchange: __NAME__Adapter.descriptor.id,
            market: market,
            last: try ticker["last"].decimal(),
            open: try ticker["open"].optionalDecimal(),
            high: try ticker["high"].optionalDecimal(),
            low: try ticker["low"].optionalDecimal(),
            baseVolume: try ticker["volume"].optionalDecimal(),
            timestamp: try ticker["timestamp"].optionalInt64().map { Timestamp(millisecondsSince1970: $0) }
        )
    }
}
EOF

render "$plugin/${name}Adapter.swift" <<'EOF'
import AggCore
import AggJSON

/// __NAME__: tickers quoted in KRW. (Describe the venue and what agg reads from it.)
///
/// The venue client owns the base URL, the envelope, the not-listed codes and the decoding
/// errors; the core (`VenueAdapter`'s entry points) checks, clamps, trims and batches. Each
/// capability is one fetch primitive on a checked request: a route and a pure decoding function,
/// such as
///
///     package func fetchCandles(_ request: CandleRequest) async throws(AggError) -> [Candle] {
///         try await client.get(APIRouter.candles(request), for: request.market, decode: __NAME__Decoding.candles)
///     }
package struct __NAME__Adapter: CompiledAdapter {
    /// Replace the placeholders (country, home currency, rate limit, base URL) with the venue's;
    /// `batching` says how several markets' tickers are asked (`.single`, `.allTickersPerQuote`,
    /// `.symbolList(max:)`).
    package static let descriptor = AdapterDescriptor(
        id: "__ID__",
        displayName: "__NAME__",
        country: "ZZ",
        homeCurrency: "KRW",
        quoteCurrencies: APIRouter.quoteCurrencies,
        capabilities: [.ticker],
        requestsPerSecond: 1,
        defaultBaseURL: "https://api.__ID__.example",
        notListedCodes: [__NAME__Decoding.notFoundCode],
        batching: .single
    )

    private let client: VenueClient

    package init(environment: AdapterEnvironment) {
        client = VenueClient(Self.descriptor, environment: environment, envelope: __NAME__Decoding.envelope)
    }

    package func quote(for market: Market) async throws(AggError) -> Quote {
        try await client.get(APIRouter.ticker(market), for: market) { json throws(JSONDecodingError) in
            try __NAME__Decoding.quote(json, market: market)
        }
    }
}
EOF

render "$fixtures/routes.json" <<'EOF'
{
  "venue": "__ID__",
  "recorded": "2024-08-08T08:12:15Z",
  "data": "sample",
  "routes": [
    {"path": "/ticker/BTC_KRW", "file": "ticker_BTC_KRW.json"},
    {"path": "/*", "file": "error_not_found.json", "status": 404}
  ]
}
EOF

render "$fixtures/contract.json" <<'EOF'
{"listed": "BTC/KRW", "unlisted": "NOPE/KRW"}
EOF

# The venue's tests, as data: each case asks one capability, names the requests sent and the
# recorded answers that answer them, and states the exact answer or error (docs/testing.md).
render "$fixtures/expectations.json" <<'EOF'
{
  "venue": "__ID__",
  "cases": [
    {
      "test": "the ticker maps every field exactly",
      "ask": {"ticker": "BTC/KRW"},
      "sent": [{"url": "/ticker/BTC_KRW", "route": "ticker_BTC_KRW.json"}],
      "answer": {"exchange": "__ID__", "market": "BTC/KRW", "last": "80640000", "open": "79950000", "high": "81490000", "low": "77760000", "baseVolume": "812.4501", "timestamp": "2024-08-08T08:12:15.000Z"}
    },
    {
      "test": "an unknown market is not listed, with the venue's code and message verbatim",
      "ask": {"ticker": "NOPE/KRW"},
      "sent": [{"url": "/ticker/NOPE_KRW", "route": "error_not_found.json"}],
      "error": {"kind": "notListed", "message": "__ID__: NOPE/KRW is not listed (error not_found: market not found)"}
    }
  ]
}
EOF

render "$fixtures/ticker_BTC_KRW.json" <<'EOF'
{"symbol":"BTC_KRW","last":"80640000","open":"79950000","high":"81490000","low":"77760000","volume":"812.4501","timestamp":1723104735000}
EOF

render "$fixtures/error_not_found.json" <<'EOF'
{"error":{"code":"not_found","message":"market not found"}}
EOF

# Registration: the name at the end of `adapterNames`, and an import and a registration line in
# the one venue list. Imports stay sorted, as swift-format wants them.
awk -v entry="    \"$name\"," '
    in_list && $0 == "]" { print entry; in_list = 0 }
    { print }
    $0 == "let adapterNames = [" { in_list = 1 }
' "$manifest" > "$manifest.scaffold" && mv "$manifest.scaffold" "$manifest"

imports="$( { grep '^import ' "$venues"; echo "import $name"; } | LC_ALL=C sort -u)"
awk -v imports="$imports" -v line="        AdapterRegistration(${name}Adapter.self)," '
    /^import / { if (!printed) { print imports; printed = 1 } next }
    $0 == "    public static let standard = AdapterRegistry([" { in_list = 1 }
    in_list && $0 == "    ])" { print line; in_list = 0 }
    { print }
' "$venues" > "$venues.scaffold" && mv "$venues.scaffold" "$venues"

grep -q "^    \"$name\",\$" "$manifest" || fail "could not add '$name' to adapterNames in Package.swift"
grep -q "^        AdapterRegistration(${name}Adapter.self),\$" "$venues" || fail "could not register ${name}Adapter"

cat <<EOF
Created Plugins/$name and Fixtures/$id; registered $name in Package.swift and
Sources/AggVenues/StandardVenues.swift.
Next: replace the placeholder endpoints, fields, descriptor and fixtures with the venue's real API
(contract.json's markets with ones its recordings answer, expectations.json's cases with what
they answer, exactly). Check it with:
  swift build --build-tests && swift test --skip-build --filter AggVenuesTests
EOF
