import AggCore
import AggJSON
import AggOptions
import FoundationEssentials

/// `agg candles` output: the bars as a table, JSON or CSV.
package struct CandlesRendering: Rendering {
    var candles: [Candle]
    var target: MarketTarget
    var interval: CandleInterval

    package func json() -> JSONValue {
        [
            "exchange": .string(target.descriptor.id),
            "symbol": .string(target.market.description),
            "interval": .string(interval.rawValue),
            "candles": .array(
                candles.map { candle in
                    [
                        "time": JSONOutput.time(candle.time),
                        "open": JSONOutput.decimal(candle.open),
                        "high": JSONOutput.decimal(candle.high),
                        "low": JSONOutput.decimal(candle.low),
                        "close": JSONOutput.decimal(candle.close),
                        "volume": JSONOutput.decimal(candle.volume),
                    ]
                }),
        ]
    }

    package func csv() -> String {
        CSVWriter.render(
            header: ["time", "open", "high", "low", "close", "volume"],
            rows: candles.map { candle in
                [candle.time.description]
                    + [candle.open, candle.high, candle.low, candle.close, candle.volume].map(\.description)
            })
    }

    /// `BTC/KRW on bithumb · 1m · 60 bars`.
    func caption(_ count: Int) -> String {
        "\(target.market) on \(target.descriptor.id) · \(interval.rawValue) · \(count) bar\(count == 1 ? "" : "s")"
    }

    package func table(width: Int, style: TextStyle) -> String {
        let currency = target.market.quote
        var table = TextTable(columns: [
            .init("TIME (UTC)"), .init("OPEN", .right, priority: 2), .init("HIGH", .right, priority: 3),
            .init("LOW", .right, priority: 3), .init("CLOSE", .right), .init("VOLUME", .right, priority: 1),
        ])
        for candle in candles {
            let move = candle.close - candle.open
            table.append([
                .init(TableTime.text(candle.time)),
                .init(DecimalFormatting.price(candle.open, currency: currency)),
                .init(DecimalFormatting.price(candle.high, currency: currency)),
                .init(DecimalFormatting.price(candle.low, currency: currency)),
                .init(
                    DecimalFormatting.price(candle.close, currency: currency),
                    paint: { [style] in style.signed($0, move) }),
                .init(DecimalFormatting.grouped(candle.volume)),
            ])
        }
        return style.dim(caption(candles.count)) + "\n"
            + table.render(width: width, style: style)
    }

    /// The closes as a braille line chart, coloured by the move over the period, with the first
    /// and last bar times underneath and a summary line.
    func chart(width: Int, style: TextStyle) -> String {
        let currency = target.market.quote
        guard let first = candles.first, let last = candles.last else {
            return style.dim(caption(0))
        }
        let move = last.close - first.open
        let lines = LineChart.render(
            candles.map(\.close), width: width, height: CandlesCommand.chartHeight,
            label: { DecimalFormatting.price($0, currency: currency) },
            xLabels: (TableTime.text(first.time), TableTime.text(last.time)),
            paint: { style.signed($0, move) })
        let percent = first.open == 0 ? nil : move / first.open * 100
        let arrow = move > 0 ? "▲" : move < 0 ? "▼" : "="
        let summary =
            "close \(DecimalFormatting.price(last.close, currency: currency)) \(currency)  "
            + style.signed(
                "\(arrow) \(DecimalFormatting.price(move, currency: currency))"
                    + (percent.map { " (\(DecimalFormatting.percent($0)))" } ?? ""), move)
            + " since \(TableTime.text(first.time)) UTC"
        return ([style.dim(caption(candles.count))] + lines + [summary])
            .joined(separator: "\n")
    }

    package init(candles: [Candle], target: MarketTarget, interval: CandleInterval) {
        self.candles = candles
        self.target = target
        self.interval = interval
    }
}

/// `agg candles --chart`: the closes as a line chart, in place of the table.
package struct CandlesChartRendering: Rendering {
    var bars: CandlesRendering

    /// A chart fills the terminal, or 80 columns where nothing sets a width (a pipe).
    package func table(width: Int, style: TextStyle) -> String {
        bars.chart(width: width == Console.unlimitedWidth ? Console.defaultWidth : width, style: style)
    }

    package func json() -> JSONValue { bars.json() }
    package func csv() -> String { bars.csv() }

    package init(bars: CandlesRendering) {
        self.bars = bars
    }
}

/// `agg trades` output: the trades as a table, JSON or CSV.
package struct TradesRendering: Rendering {
    var trades: [Trade]
    var target: MarketTarget

    package func json() -> JSONValue {
        [
            "exchange": .string(target.descriptor.id),
            "symbol": .string(target.market.description),
            "trades": .array(
                trades.map { trade in
                    [
                        "time": JSONOutput.time(trade.time),
                        "side": .string(trade.side.rawValue),
                        "price": JSONOutput.decimal(trade.price),
                        "amount": JSONOutput.decimal(trade.amount),
                        "cost": JSONOutput.decimal(trade.cost),
                    ]
                }),
        ]
    }

    package func csv() -> String {
        CSVWriter.render(
            header: ["time", "side", "price", "amount", "cost"],
            rows: trades.map { trade in
                [
                    trade.time.description, trade.side.rawValue, trade.price.description, trade.amount.description,
                    trade.cost.description,
                ]
            })
    }

    package func table(width: Int, style: TextStyle) -> String {
        let currency = target.market.quote
        var table = TextTable(columns: [
            .init("TIME (UTC)"), .init("SIDE"), .init("PRICE", .right), .init("AMOUNT", .right),
            .init("COST", .right, priority: 1),
        ])
        for trade in trades {
            let direction: Decimal = trade.side == .buy ? 1 : -1
            table.append([
                .init(TableTime.text(trade.time)),
                .init(trade.side.rawValue, paint: { [style] in style.signed($0, direction) }),
                .init(
                    DecimalFormatting.price(trade.price, currency: currency),
                    paint: { [style] in style.signed($0, direction) }),
                .init(DecimalFormatting.grouped(trade.amount)),
                .init(DecimalFormatting.money(trade.cost, currency: currency)),
            ])
        }
        let caption = "\(target.market) on \(target.descriptor.id) · \(trades.count) latest trades"
        return style.dim(caption) + "\n" + table.render(width: width, style: style)
    }

    package init(trades: [Trade], target: MarketTarget) {
        self.trades = trades
        self.target = target
    }
}

/// `agg book` output: asks above bids with the spread, as a table, JSON or CSV.
package struct BookRendering: Rendering {
    var book: OrderBook
    var target: MarketTarget

    package func json() -> JSONValue {
        func levels(_ levels: [BookLevel]) -> JSONValue {
            .array(levels.map { ["price": JSONOutput.decimal($0.price), "amount": JSONOutput.decimal($0.amount)] })
        }
        return [
            "exchange": .string(target.descriptor.id),
            "symbol": .string(target.market.description),
            "timestamp": JSONOutput.time(book.timestamp),
            "bids": levels(book.bids),
            "asks": levels(book.asks),
        ]
    }

    package func csv() -> String {
        CSVWriter.render(
            header: ["side", "price", "amount"],
            rows: book.bids.map { ["bid", $0.price.description, $0.amount.description] }
                + book.asks.map { ["ask", $0.price.description, $0.amount.description] })
    }

    /// The spread and its size relative to the mid price, when both sides have a level.
    static func spread(_ book: OrderBook) -> (amount: Decimal, percentOfMid: Decimal)? {
        guard let ask = book.asks.first?.price, let bid = book.bids.first?.price else { return nil }
        let mid = (ask + bid) / 2
        let amount = ask - bid
        return (amount, mid == 0 ? 0 : amount / mid * 100)
    }

    package func table(width: Int, style: TextStyle) -> String {
        let currency = target.market.quote
        var table = TextTable(columns: [
            .init("SIDE"), .init("PRICE", .right), .init("AMOUNT", .right), .init("TOTAL", .right, priority: 2),
            .init("VALUE (\(currency))", .right, priority: 1),
        ])
        func rows(_ levels: [BookLevel], side: String, direction: Decimal) -> [[TextTable.Cell]] {
            var total: Decimal = 0
            return levels.map { level in
                total += level.amount
                return [
                    .init(side, paint: { [style] in style.signed($0, direction) }),
                    .init(
                        DecimalFormatting.price(level.price, currency: currency),
                        paint: { [style] in style.signed($0, direction) }),
                    .init(DecimalFormatting.grouped(level.amount)),
                    .init(DecimalFormatting.grouped(total)),
                    .init(DecimalFormatting.money(level.price * level.amount, currency: currency)),
                ]
            }
        }
        for row in rows(book.asks, side: "ask", direction: -1).reversed() { table.append(row) }
        if let spread = Self.spread(book) {
            table.append([
                .init("spread", paint: { [style] in style.dim($0) }),
                .init(DecimalFormatting.price(spread.amount, currency: currency)),
                .init(DecimalFormatting.fixed(spread.percentOfMid, places: 4) + "%"),
            ])
        }
        for row in rows(book.bids, side: "bid", direction: 1) { table.append(row) }
        let caption =
            "\(target.market) on \(target.descriptor.id) · \(book.asks.count) asks, \(book.bids.count) bids"
            + (book.timestamp.map { " · \(TableTime.text($0)) UTC" } ?? "")
        return style.dim(caption) + "\n" + table.render(width: width, style: style)
    }

    package init(book: OrderBook, target: MarketTarget) {
        self.book = book
        self.target = target
    }
}
