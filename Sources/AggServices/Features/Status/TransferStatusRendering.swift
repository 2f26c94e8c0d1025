import AggCore
import AggJSON
import AggOptions

/// `agg status` output: one row per venue, coin and network.
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
            ]
        }
        let errors = report.errors.map { error in
            var symbol: String?
            if case .notListed(_, let market, _, _) = error { symbol = market.base }
            return JSONOutput.error(error, exchange: error.venue, symbol: symbol)
        }
        return ["status": .array(rows), "errors": .array(errors)]
    }

    package func csv() -> String {
        CSVWriter.render(
            header: ["exchange", "symbol", "network", "deposit", "withdraw", "withdrawFee", "asOf", "note"],
            rows: report.rows.map { row in
                [
                    row.exchange, row.coin, row.network ?? "", row.deposit.rawValue, row.withdraw.rawValue,
                    row.withdrawFee?.description ?? "", row.asOf?.description ?? "", row.note ?? "",
                ]
            })
    }

    package func table(width: Int, style: TextStyle) -> String {
        var table = TextTable(columns: [
            .init("EXCHANGE"), .init("SYMBOL"), .init("NETWORK", priority: 3), .init("DEPOSIT"), .init("WITHDRAW"),
            .init("FEE", .right, priority: 2), .init("NOTE", priority: 1),
        ])
        for row in report.rows {
            table.append(texts: [
                row.exchange, row.coin, row.network ?? "-", row.deposit.rawValue, row.withdraw.rawValue,
                row.withdrawFee?.description ?? "-", row.note ?? "",
            ])
        }
        return table.render(width: width, style: style)
    }

    package init(report: TransferStatusService.Report) {
        self.report = report
    }
}
