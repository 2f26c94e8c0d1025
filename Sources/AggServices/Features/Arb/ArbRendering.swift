import AggCore
import AggJSON
import AggOptions
import FoundationEssentials

/// `agg arb` output: the route line by line (table), or one JSON object, or one CSV row.
package struct ArbRendering: Rendering {
    var report: ArbReport

    package init(report: ArbReport) {
        self.report = report
    }

    /// The buy leg's figures: from the route when there is one, else from the buy alone.
    private var buyFigures: (fill: BookFill, fee: Decimal, cost: Decimal)? {
        if let route = report.route { return (route.buy, route.buyFee, route.cost) }
        guard let fill = report.buyFill, let fee = report.buyFeeAmount else { return nil }
        let inQuote = report.buy.fee?.fee.buyCharge != .coin
        return (fill, fee, inQuote ? fill.value + fee : fill.value)
    }

    /// What the sale brought after its fee, in the selling currency.
    private var proceeds: Decimal? {
        report.route.map { $0.sell.value - $0.sellFee }
    }

    static func average(_ fill: BookFill?) -> Decimal? {
        rounded(fill?.averagePrice)
    }

    /// `value` to 12 decimals (`Conversion.quotientScale`): a walk that divides (the coin a
    /// partial level buys) carries Decimal's 38 digits, more than any venue counts.
    static func rounded(_ value: Decimal?) -> Decimal? {
        value.map { DecimalRounding.rounded($0, places: Conversion.quotientScale) }
    }

    /// The oldest time of the rate inputs.
    private var ratesAsOf: Timestamp? {
        report.rates.compactMap(\.asOf).min { $0.millisecondsSince1970 < $1.millisecondsSince1970 }
    }

    private var ratesSource: String? {
        let sources = report.rates.map(\.source).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        return sources.isEmpty ? nil : sources.joined(separator: ", ")
    }

    /// The day a tabled or published fee was read, `nil` for a live or configured one.
    static func readOn(_ source: TakerFeeLookup.Source?) -> String? {
        if case .schedule(_, let asOf) = source { return asOf }
        return nil
    }

    static func readOn(_ source: WithdrawalFeeSource?) -> String? {
        if case .table(_, let asOf) = source { return asOf }
        return nil
    }

    /// The transfer object; a tabled fee adds `feeSource`
    /// (`{"kind":"table","source":PAGE,"asOf":"2026-09-23","ageDays":72}`), the only source it names,
    /// so routes of venues without a table read as before.
    private var transferJSON: JSONValue {
        let transfer = report.transfer
        var object: [(String, JSONValue)] = [
            ("network", JSONOutput.string(transfer?.network)),
            ("fee", JSONOutput.decimal(Self.rounded(report.route?.transferFee))),
            ("feeCurrency", .string(report.coin)),
            ("withdraw", JSONOutput.string(transfer?.withdraw.rawValue)),
            ("deposit", JSONOutput.string(transfer?.deposit.rawValue)),
        ]
        if let transfer, let source = transfer.feeSource, case .table = source {
            object.append(("feeSource", TransferStatusRendering.json(source, at: transfer.asOf)))
        }
        return .object(JSONObject(object.map { JSONObject.Member(key: $0.0, value: $0.1) }))
    }

    package func json() -> JSONValue {
        let buy = buyFigures
        let transfer = report.transfer
        let problems: [JSONValue] = (report.problems + report.warnings).map { problem in
            [
                "exchange": JSONOutput.string(problem.exchange), "symbol": .string(report.coin),
                "kind": .string(problem.kind), "code": .null, "message": .string(problem.message),
            ]
        }
        let fx: JSONValue =
            report.rates.isEmpty
            ? .null
            : [
                "source": JSONOutput.string(ratesSource), "rate": JSONOutput.decimal(Self.rounded(report.rate)),
                "asOf": JSONOutput.time(ratesAsOf),
            ]
        return [
            "coin": .string(report.coin),
            "from": .string(report.buy.exchange),
            "to": .string(report.sell.exchange),
            "notional": JSONOutput.decimal(report.notional),
            "currency": .string(report.currency),
            "buy": [
                "exchange": .string(report.buy.exchange),
                "averagePrice": JSONOutput.decimal(Self.average(buy?.fill)),
                "filled": JSONOutput.decimal(Self.rounded(buy?.fill.amount)),
                "cost": JSONOutput.decimal(Self.rounded(buy?.cost)),
                "fee": JSONOutput.decimal(Self.rounded(buy?.fee)),
            ],
            "transfer": transferJSON,
            "sell": [
                "exchange": .string(report.sell.exchange),
                "averagePrice": JSONOutput.decimal(Self.average(report.route?.sell)),
                "filled": JSONOutput.decimal(Self.rounded(report.route?.sell.amount)),
                "proceeds": JSONOutput.decimal(Self.rounded(proceeds)),
                "fee": JSONOutput.decimal(Self.rounded(report.route?.sellFee)),
            ],
            "fx": fx,
            "net": JSONOutput.decimal(report.net),
            "netPercent": JSONOutput.decimal(report.netPercent),
            "breakEvenNotional": JSONOutput.decimal(report.breakEvenNotional),
            "depthLimited": report.route.map { .bool($0.depthLimited) } ?? .null,
            "asOf": [
                "buyBook": JSONOutput.time(report.buy.asOf),
                "sellBook": JSONOutput.time(report.sell.asOf),
                "transferStatus": JSONOutput.time(transfer?.asOf),
                "fx": JSONOutput.time(ratesAsOf),
                "buyFee": JSONOutput.string(Self.readOn(report.buy.fee?.source)),
                "sellFee": JSONOutput.string(Self.readOn(report.sell.fee?.source)),
                "withdrawalFee": JSONOutput.string(Self.readOn(transfer?.feeSource)),
            ],
            "errors": .array(problems),
        ]
    }

    package func csv() -> String {
        let buy = buyFigures
        return CSVWriter.render(
            header: [
                "coin", "from", "to", "notional", "currency", "buyAveragePrice", "buyFilled", "buyCost", "buyFee",
                "network", "transferFee", "withdraw", "deposit", "sellAveragePrice", "sellFilled", "proceeds",
                "sellFee", "net", "netPercent", "breakEvenNotional", "depthLimited",
            ],
            rows: [
                [
                    report.coin, report.buy.exchange, report.sell.exchange, report.notional.description,
                    report.currency, Self.text(Self.average(buy?.fill)), Self.text(Self.rounded(buy?.fill.amount)),
                    Self.text(Self.rounded(buy?.cost)), Self.text(Self.rounded(buy?.fee)),
                    report.transfer?.network ?? "",
                    Self.text(Self.rounded(report.route?.transferFee)), report.transfer?.withdraw.rawValue ?? "",
                    report.transfer?.deposit.rawValue ?? "", Self.text(Self.average(report.route?.sell)),
                    Self.text(Self.rounded(report.route?.sell.amount)), Self.text(Self.rounded(proceeds)),
                    Self.text(Self.rounded(report.route?.sellFee)),
                    Self.text(report.net), Self.text(report.netPercent), Self.text(report.breakEvenNotional),
                    report.route.map { $0.depthLimited ? "true" : "false" } ?? "",
                ]
            ])
    }

    static func text(_ value: Decimal?) -> String {
        value.map { DecimalText.format($0) } ?? ""
    }

    /// A taker fee's rate and origin: `0.05% (schedule read 2026-09-23)`.
    static func describe(_ choice: TakerFeeLookup.Choice?) -> String {
        guard let choice else { return "taker fee unknown" }
        let rate = DecimalFormatting.grouped(choice.fee.rate * 100) + "%"
        switch choice.source {
        case .schedule(_, let asOf): return "\(rate), published schedule read \(asOf)"
        case .configuration: return "\(rate), config file"
        }
    }

    /// A withdrawal fee's origin: `from the venue`, `tabled, read 2026-09-23, 72 days old` (the
    /// table's age at `time`, the transfer status's time), `config file`, `unknown`.
    static func describe(_ source: WithdrawalFeeSource?, at time: Timestamp? = nil) -> String {
        switch source {
        case .venue: "from the venue"
        case .table(_, let asOf): "tabled, read \(asOf)" + (FeeText.age(asOf, at: time).map { ", \($0)" } ?? "")
        case .configuration: "config file"
        case nil: "unknown"
        }
    }

    package func table(width: Int, style: TextStyle) -> String {
        let buyQuote = report.buy.market.quote
        let sellQuote = report.sell.market.quote
        let coin = report.coin
        func amount(_ value: Decimal?, _ unit: String) -> String {
            value.map { "\(DecimalFormatting.grouped(DecimalRounding.rounded($0, places: 8))) \(unit)" } ?? "-"
        }
        func money(_ value: Decimal?, _ unit: String) -> String {
            value.map { "\(DecimalFormatting.money($0, currency: unit)) \(unit)" } ?? "-"
        }
        func price(_ fill: BookFill?, _ unit: String) -> String {
            guard let average = Self.average(fill) else { return "-" }
            return DecimalFormatting.fixed(average, places: DecimalFormatting.minorUnits(of: unit) + 2)
        }
        var lines: [(String, String)] = []
        lines.append(
            (
                "ROUTE",
                "\(coin): buy on \(report.buy.exchange), sell on \(report.sell.exchange), "
                    + "\(DecimalFormatting.grouped(report.notional)) \(report.currency)"
            ))
        let buy = buyFigures
        var buyText = "\(report.buy.exchange) \(report.buy.market)  avg \(price(buy?.fill, buyQuote))"
        buyText += "  filled \(amount(buy?.fill.amount, coin))  cost \(money(buy?.cost, buyQuote))"
        let buyFeeUnit = report.buy.fee?.fee.buyCharge == .coin ? coin : buyQuote
        buyText +=
            "  fee \(report.buy.fee?.fee.buyCharge == .coin ? amount(buy?.fee, coin) : money(buy?.fee, buyFeeUnit))"
        buyText += " (\(Self.describe(report.buy.fee)))"
        if let slippage = buy?.fill.slippagePercent {
            buyText += "  slippage \(DecimalFormatting.fixed(slippage, places: 2))%"
        }
        lines.append(("BUY", buyText))
        if let transfer = report.transfer {
            let fee =
                transfer.fee == nil
                ? "unknown"
                : (report.route.map { amount($0.transferFee, coin) } ?? "-")
                    + " (\(Self.describe(transfer.feeSource, at: transfer.asOf)))"
            lines.append(
                (
                    "TRANSFER",
                    "\(transfer.network)  fee \(fee)  "
                        + "withdraw \(transfer.withdraw.rawValue) on \(report.buy.exchange)  "
                        + "deposit \(transfer.deposit.rawValue) on \(report.sell.exchange)"
                ))
        } else {
            lines.append(("TRANSFER", "no route"))
        }
        var sellText = "\(report.sell.exchange) \(report.sell.market)  avg \(price(report.route?.sell, sellQuote))"
        sellText += "  filled \(amount(report.route?.sell.amount, coin))  proceeds \(money(proceeds, sellQuote))"
        sellText += "  fee \(money(report.route?.sellFee, sellQuote)) (\(Self.describe(report.sell.fee)))"
        if let slippage = report.route?.sell.slippagePercent {
            sellText += "  slippage \(DecimalFormatting.fixed(slippage, places: 2))%"
        }
        lines.append(("SELL", sellText))
        if let net = report.net {
            var text = money(net, report.currency)
            if let percent = report.netPercent { text += "  \(DecimalFormatting.percent(percent))" }
            if report.route?.depthLimited == true { text += "  (depth limited)" }
            lines.append(("NET", text))
        } else {
            lines.append(("NET", "-"))
        }
        lines.append(
            (
                "BREAK-EVEN",
                report.breakEvenNotional.map { money($0, report.currency) }
                    ?? (report.net == nil ? "-" : "none within the books' depth")
            ))
        if !report.rates.isEmpty {
            lines.append(
                (
                    "FX",
                    report.rates.map { value in
                        "\(value.source) \(DecimalFormatting.grouped(value.value))"
                            + (value.asOf.map { " at \($0)" } ?? "")
                    }.joined(separator: "; ")
                ))
        }
        var times = [
            "\(report.buy.exchange) book \(report.buy.asOf?.description ?? "-")",
            "\(report.sell.exchange) book \(report.sell.asOf?.description ?? "-")",
        ]
        if let time = report.transfer?.asOf { times.append("status \(time)") }
        lines.append(("AS OF", times.joined(separator: "; ")))
        let labelWidth = lines.map(\.0.count).max() ?? 0
        return lines.map { label, text in
            label + String(repeating: " ", count: labelWidth - label.count + 2) + text
        }.joined(separator: "\n")
    }
}
