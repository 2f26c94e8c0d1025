import AggCore
import AggJSON
import AggOptions

/// `agg status` output: one row per venue, coin and network, with its withdrawal fee, minimum,
/// fee model and fee source, then each venue's taker fee once.
package struct TransferStatusRendering: Rendering {
    var report: TransferStatusService.Report

    package func json() -> JSONValue {
        let rows: [JSONValue] = report.rows.map { row in
            [
                "exchange": .string(row.exchange),
                "symbol": .string(row.coin),
                "network": JSONOutput.string(row.network),
                "deposit": .string(row.deposit.rawValue),
                "withdraw": .string(row.withdraw.rawValue),
                "withdrawFee": JSONOutput.decimal(row.withdrawFee),
                "asOf": JSONOutput.time(row.asOf),
                "note": JSONOutput.string(row.note),
                "withdrawalFee": row.withdrawal.map(Self.json) ?? .null,
                "withdrawMinimum": JSONOutput.decimal(row.withdrawMinimum),
                "feeSource": row.feeSource.map { Self.json($0, at: row.asOf) } ?? .null,
            ]
        }
        let errors = report.errors.map { error in
            var symbol: String?
            if case .notListed(_, let market, _, _) = error { symbol = market.base }
            return JSONOutput.error(error, exchange: error.venue, symbol: symbol)
        }
        let takerFees: [JSONValue] = report.takerFees.map { fee in
            var source: JSONValue = ["kind": "configuration"]
            if case .schedule(let page, let asOf) = fee.choice.source {
                source = ["kind": "schedule", "source": .string(page), "asOf": .string(asOf)]
            }
            return [
                "exchange": .string(fee.exchange), "quote": .string(fee.quoteCurrency),
                "rate": JSONOutput.decimal(fee.choice.fee.rate), "source": source,
            ]
        }
        return ["status": .array(rows), "errors": .array(errors), "takerFees": .array(takerFees)]
    }

    /// `{"model":"fixed","amount":"0.0005"}` or
    /// `{"model":"percentage","rate":"0.001","minimum":"0.0002","maximum":"0.01"}` (`maximum` may be null).
    static func json(_ fee: WithdrawalFee) -> JSONValue {
        switch fee {
        case .fixed(let amount):
            return ["model": "fixed", "amount": JSONOutput.decimal(amount)]
        case .percentage(let rate, let minimum, let maximum):
            return [
                "model": "percentage", "rate": JSONOutput.decimal(rate), "minimum": JSONOutput.decimal(minimum),
                "maximum": JSONOutput.decimal(maximum),
            ]
        }
    }

    /// `{"kind":"venue"}`, `{"kind":"table","source":PAGE,"asOf":"2026-09-23","ageDays":72}` (the
    /// table's age in whole days at `time`, the row's time; null without one) or `{"kind":"configuration"}`.
    static func json(_ source: WithdrawalFeeSource, at time: Timestamp?) -> JSONValue {
        if case .table(let page, let asOf) = source {
            let days = time.flatMap { WithdrawalFeeTable.ageInDays(asOf: asOf, at: $0) }
            return [
                "kind": "table", "source": .string(page), "asOf": .string(asOf),
                "ageDays": days.map { .number(String($0)) } ?? .null,
            ]
        }
        return ["kind": .string(FeeText.sourceKind(source))]
    }

    package func csv() -> String {
        CSVWriter.render(
            header: [
                "exchange", "symbol", "network", "deposit", "withdraw", "withdrawFee", "asOf", "note", "feeModel",
                "feeRate", "feeMinimum", "feeMaximum", "withdrawMinimum", "feeSource", "feeAsOf",
            ],
            rows: report.rows.map { row in
                var rate = ""
                var minimum = ""
                var maximum = ""
                if case .percentage(let r, let low, let high) = row.withdrawal {
                    rate = r.description
                    minimum = low.description
                    maximum = high?.description ?? ""
                }
                var feeAsOf = ""
                if case .table(_, let asOf) = row.feeSource { feeAsOf = asOf }
                return [
                    row.exchange, row.coin, row.network ?? "", row.deposit.rawValue, row.withdraw.rawValue,
                    row.withdrawFee?.description ?? "", row.asOf?.description ?? "", row.note ?? "",
                    row.withdrawal.map(FeeText.model) ?? "", rate, minimum, maximum,
                    row.withdrawMinimum?.description ?? "", row.feeSource.map(FeeText.sourceKind) ?? "", feeAsOf,
                ]
            })
    }

    package func table(width: Int, style: TextStyle) -> String {
        var table = TextTable(columns: [
            .init("EXCHANGE"), .init("SYMBOL"), .init("NETWORK", priority: 3), .init("DEPOSIT"), .init("WITHDRAW"),
            .init("FEE", .right, priority: 2), .init("MIN", .right, priority: 2), .init("FEE SOURCE", priority: 1),
            .init("NOTE", priority: 1),
        ])
        for row in report.rows {
            table.append(texts: [
                row.exchange, row.coin, row.network ?? "-", row.deposit.rawValue, row.withdraw.rawValue,
                row.withdrawal.map { FeeText.withdrawal($0, coin: row.coin) } ?? "-",
                row.withdrawMinimum?.description ?? "-", row.feeSource.map { FeeText.source($0, at: row.asOf) } ?? "-",
                row.note ?? "",
            ])
        }
        let rendered = table.render(width: width, style: style)
        guard !report.takerFees.isEmpty else { return rendered }
        return rendered + "\ntaker fees: " + report.takerFees.map(FeeText.taker).joined(separator: "; ")
    }

    package init(report: TransferStatusService.Report) {
        self.report = report
    }
}
