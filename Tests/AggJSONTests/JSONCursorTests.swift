import AggJSON
import Foundation
import Testing

@Suite("JSONCursor")
struct JSONCursorTests {
    /// A Bithumb-shaped ticker list with the awkward cases the accessors must name precisely.
    static let tickers = fixture(
        #"""
        {"status":"0000","data":{
          "BTC":{"closing_price":{"nested":true},"opening_price":"80630000.0000","units_traded":"",
                 "min_price":null,"max_price":80700000,"fluctate_rate_24H":"-0.54","bad":"1,23",
                 "date":"1723104735027","count":42,"fraction":"1.5","huge":"9223372036854775808",
                 "flag":false,"name":"비트코인","comma":"80,630.5","spaced":" 123","bare":".5",
                 "plus":"+1","exponent":"1.5E-3"},
          "1INCH":{"closing_price":"512.3"},
          "date":"1723104735027"}}
        """#)

    /// A candlestick answer: rows of `[time_ms, open, close, high, low, volume]`.
    static let candles = fixture(
        #"""
        {"status":"0000","data":[
          [1723104000000,"80630000","80640000","80700000","80600000","1.5"],
          [1723104060000,"80640000","80650000","80700000","80600000","2"],
          [1723104120000,"80650000","80660000","80700000","80600000","0.25"],
          [1723104180000,"80660000",{"x":1},"80700000","80600000","0"]]}
        """#)

    /// A cursor at the root of `text`; a fixture that does not parse becomes `null`, which
    /// `fixturesParse` reports.
    static func fixture(_ text: String) -> JSONCursor {
        JSONCursor((try? JSONParser.parse(text)) ?? .null)
    }

    @Test("the fixtures parse")
    func fixturesParse() {
        #expect(Self.tickers["status"].value == "0000")
        #expect(Self.candles["status"].value == "0000")
    }

    static let decimalFailures: [(cursor: JSONCursor, description: String)] = [
        (
            tickers["data"]["BTC"]["closing_price"],
            "$.data.BTC.closing_price: expected a decimal, found an object"
        ),
        (
            tickers["data"]["ETH"]["closing_price"],
            "$.data.ETH.closing_price: expected a decimal, found nothing"
        ),
        (tickers["data"]["BTC"]["missing"], "$.data.BTC.missing: expected a decimal, found nothing"),
        (tickers["data"]["BTC"]["min_price"], "$.data.BTC.min_price: expected a decimal, found null"),
        (tickers["data"]["BTC"]["flag"], "$.data.BTC.flag: expected a decimal, found a boolean"),
        (tickers["data"]["BTC"]["bad"], "$.data.BTC.bad: '1,23' is not a decimal number"),
        (tickers["data"]["BTC"]["comma"], "$.data.BTC.comma: '80,630.5' is not a decimal number"),
        (tickers["data"]["BTC"]["spaced"], "$.data.BTC.spaced: ' 123' is not a decimal number"),
        (tickers["data"]["BTC"]["bare"], "$.data.BTC.bare: '.5' is not a decimal number"),
        (tickers["data"]["BTC"]["plus"], "$.data.BTC.plus: '+1' is not a decimal number"),
        (tickers["data"]["BTC"]["units_traded"], "$.data.BTC.units_traded: an empty number"),
        (tickers["data"]["BTC"]["name"], "$.data.BTC.name: '비트코인' is not a decimal number"),
        (
            tickers["data"]["date"]["closing_price"],
            "$.data.date.closing_price: expected a decimal, found nothing"
        ),
        (tickers["status"]["x"]["y"], "$.status.x.y: expected a decimal, found nothing"),
        (tickers["data"], "$.data: expected a decimal, found an object"),
        (candles["data"], "$.data: expected a decimal, found an array"),
        (candles["data"][3][2], "$.data[3][2]: expected a decimal, found an object"),
        (candles["data"][9][0], "$.data[9][0]: expected a decimal, found nothing"),
        (candles["data"][-1][0], "$.data[-1][0]: expected a decimal, found nothing"),
        (candles["data"][0][6], "$.data[0][6]: expected a decimal, found nothing"),
        (candles["data"]["0"], "$.data.0: expected a decimal, found nothing"),
        (candles["status"][0], "$.status[0]: expected a decimal, found nothing"),
    ]

    @Test("decimal failures name the path", arguments: decimalFailures)
    func decimalFailure(cursor: JSONCursor, description: String) {
        let error = #expect(throws: JSONDecodingError.self) { try cursor.decimal() }
        #expect(error?.description == description)
        #expect(error?.path == cursor.path)
    }

    @Test("reads decimals from numbers and strings")
    func decimals() throws {
        let btc = Self.tickers["data"]["BTC"]
        #expect(try btc["opening_price"].decimal() == Decimal(string: "80630000"))
        #expect(try btc["max_price"].decimal() == Decimal(string: "80700000"))
        #expect(try btc["fluctate_rate_24H"].decimal() == Decimal(string: "-0.54"))
        #expect(
            throws: JSONDecodingError(
                path: "$.data.BTC.exponent",
                reason: "'1.5E-3' has an exponent: a decimal written as text must be written out in full")
        ) { try btc["exponent"].decimal() }
        #expect(
            try Self.tickers["data"]["1INCH"]["closing_price"].decimal() == Decimal(string: "512.3"))
        #expect(try Self.candles["data"][2][5].decimal() == Decimal(string: "0.25"))
        #expect(try Self.candles["data"][0][0].decimal() == Decimal(string: "1723104000000"))
    }

    @Test("optionalDecimal treats null, missing and empty text as absent")
    func optionalDecimals() throws {
        let btc = Self.tickers["data"]["BTC"]
        #expect(try btc["min_price"].optionalDecimal() == nil)
        #expect(try btc["no_such_field"].optionalDecimal() == nil)
        #expect(try btc["units_traded"].optionalDecimal() == nil)
        #expect(try btc["opening_price"].optionalDecimal() == Decimal(string: "80630000"))
        #expect(try btc["max_price"].optionalDecimal() == Decimal(string: "80700000"))

        let object = #expect(throws: JSONDecodingError.self) {
            try btc["closing_price"].optionalDecimal()
        }
        #expect(object?.description == "$.data.BTC.closing_price: expected a decimal, found an object")
        let garbage = #expect(throws: JSONDecodingError.self) { try btc["bad"].optionalDecimal() }
        #expect(garbage?.description == "$.data.BTC.bad: '1,23' is not a decimal number")
        let blank = #expect(throws: JSONDecodingError.self) {
            try JSONCursor(.string(" ")).optionalDecimal()
        }
        #expect(blank?.description == "$: ' ' is not a decimal number")
    }

    @Test("whole numbers from numbers and strings")
    func wholeNumbers() throws {
        let btc = Self.tickers["data"]["BTC"]
        #expect(try btc["date"].int64() == 1_723_104_735_027)
        #expect(try btc["count"].int64() == 42)
        #expect(try Self.candles["data"][1][0].int64() == 1_723_104_060_000)
        #expect(try btc["min_price"].optionalInt64() == nil)
        #expect(try btc["nothing"].optionalInt64() == nil)
        #expect(try btc["count"].optionalInt64() == 42)

        let fraction = #expect(throws: JSONDecodingError.self) { try btc["fraction"].int64() }
        #expect(fraction?.description == "$.data.BTC.fraction: '1.5' is not a whole number in range")
        let huge = #expect(throws: JSONDecodingError.self) { try btc["huge"].int64() }
        #expect(
            huge?.description == "$.data.BTC.huge: '9223372036854775808' is not a whole number in range")
        let object = #expect(throws: JSONDecodingError.self) { try btc["closing_price"].int64() }
        #expect(
            object?.description == "$.data.BTC.closing_price: expected a whole number, found an object")
        let missing = #expect(throws: JSONDecodingError.self) { try btc["nothing"].int64() }
        #expect(missing?.description == "$.data.BTC.nothing: expected a whole number, found nothing")
    }

    @Test("strings, text and booleans")
    func scalars() throws {
        let btc = Self.tickers["data"]["BTC"]
        #expect(try Self.tickers["status"].string() == "0000")
        #expect(try btc["name"].string() == "비트코인")
        #expect(try btc["name"].optionalString() == "비트코인")
        #expect(try btc["min_price"].optionalString() == nil)
        #expect(try btc["nothing"].optionalString() == nil)
        #expect(try btc["max_price"].text() == "80700000")
        #expect(try btc["opening_price"].text() == "80630000.0000")
        #expect(try btc["flag"].bool() == false)

        let number = #expect(throws: JSONDecodingError.self) { try btc["max_price"].string() }
        #expect(number?.description == "$.data.BTC.max_price: expected a string, found a number")
        let flag = #expect(throws: JSONDecodingError.self) { try btc["flag"].text() }
        #expect(flag?.description == "$.data.BTC.flag: expected a string or a number, found a boolean")
        let text = #expect(throws: JSONDecodingError.self) { try btc["name"].bool() }
        #expect(text?.description == "$.data.BTC.name: expected a boolean, found a string")
        let array = #expect(throws: JSONDecodingError.self) {
            try Self.candles["data"].optionalString()
        }
        #expect(array?.description == "$.data: expected a string, found an array")
    }

    @Test("presence")
    func presence() {
        let btc = Self.tickers["data"]["BTC"]
        #expect(btc.isPresent)
        #expect(btc["units_traded"].isPresent)
        #expect(!btc["min_price"].isPresent)
        #expect(!btc["nothing"].isPresent)
        #expect(btc["min_price"].value == .null)
        #expect(btc["nothing"].value == nil)
    }

    @Test("elements and members carry their paths")
    func collections() throws {
        let rows = try Self.candles["data"].elements()
        #expect(rows.map(\.path) == ["$.data[0]", "$.data[1]", "$.data[2]", "$.data[3]"])
        let cells = try rows[3].elements()
        #expect(cells.count == 6)
        let error = #expect(throws: JSONDecodingError.self) { try cells[2].decimal() }
        #expect(error?.description == "$.data[3][2]: expected a decimal, found an object")

        let members = try Self.tickers["data"].members()
        #expect(members.map(\.key) == ["BTC", "1INCH", "date"])
        #expect(members.map(\.value.path) == ["$.data.BTC", "$.data.1INCH", "$.data.date"])
        #expect(try members[1].value["closing_price"].decimal() == Decimal(string: "512.3"))

        let notArray = #expect(throws: JSONDecodingError.self) { try Self.tickers["data"].elements() }
        #expect(notArray?.description == "$.data: expected an array, found an object")
        let notObject = #expect(throws: JSONDecodingError.self) { try Self.candles["data"].members() }
        #expect(notObject?.description == "$.data: expected an object, found an array")
        let absent = #expect(throws: JSONDecodingError.self) { try Self.candles["rows"].elements() }
        #expect(absent?.description == "$.rows: expected an array, found nothing")
        #expect(try JSONCursor([]).elements().isEmpty)
        #expect(try JSONCursor([:]).members().isEmpty)
    }

    @Test("a cursor can start at any path")
    func customRoot() {
        let cursor = JSONCursor(["a": [nil]], path: "body")
        let error = #expect(throws: JSONDecodingError.self) { try cursor["a"][0].decimal() }
        #expect(error == JSONDecodingError(path: "body.a[0]", reason: "expected a decimal, found null"))
        #expect(cursor["a"][0].failure("custom").description == "body.a[0]: custom")
    }

    /// `cursor.decimal(key)` and `cursor.optionalDecimal(key)` are shortcuts for
    /// `cursor[key].decimal()` and `cursor[key].optionalDecimal()`: the same value or the same
    /// error (path and reason), for every member of the awkward ticker and for missing ones.
    @Test("the member shortcuts answer exactly what the member's cursor answers")
    func memberShortcuts() throws {
        let ticker = Self.tickers["data"]["BTC"]
        let keys = [
            "closing_price", "opening_price", "units_traded", "min_price", "max_price", "fluctate_rate_24H", "bad",
            "date", "count", "fraction", "huge", "flag", "name", "comma", "spaced", "bare", "plus", "exponent",
            "missing",
        ]
        for cursor in [ticker, Self.tickers["data"]["1INCH"], Self.tickers["status"], Self.tickers["nothing"]] {
            for key in keys {
                let viaMember = Result { () throws(JSONDecodingError) in try cursor[key].decimal() }
                let shortcut = Result { () throws(JSONDecodingError) in try cursor.decimal(key) }
                #expect(shortcut == viaMember, "\(cursor.path).\(key)")
                let optionalViaMember = Result { () throws(JSONDecodingError) in try cursor[key].optionalDecimal() }
                let optionalShortcut = Result { () throws(JSONDecodingError) in try cursor.optionalDecimal(key) }
                #expect(optionalShortcut == optionalViaMember, "\(cursor.path).\(key)")
            }
        }
        // A few of them spelled out.
        #expect(try ticker.optionalDecimal("opening_price") == Decimal(string: "80630000"))
        #expect(try ticker.optionalDecimal("units_traded") == nil)
        #expect(try ticker.optionalDecimal("min_price") == nil)
        #expect(try ticker.optionalDecimal("missing") == nil)
        let error = #expect(throws: JSONDecodingError.self) { try ticker.decimal("comma") }
        #expect(error?.path == "$.data.BTC.comma")
    }
}
