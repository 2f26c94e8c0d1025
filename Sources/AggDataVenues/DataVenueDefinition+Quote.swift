import AggCore
import AggJSON
import FoundationEssentials

extension DataVenueDefinition {
    /// A quote of `market` from one ticker object, `fields` read below it, its time in `time`:
    /// the one mapping of a data venue's tickers, for REST answers and stream frames alike.
    func quote(
        _ item: JSONCursor, fields: TickerFields, market: Market, time timeFormat: VenueTimeFormat,
        changeBasis: ChangeBasis?
    ) throws(JSONDecodingError) -> Quote {
        func decimal(_ path: DataPath?) throws(JSONDecodingError) -> Decimal? {
            guard let path else { return nil }
            return try path.read(item).optionalDecimal()
        }
        func price(_ path: DataPath?) throws(JSONDecodingError) -> Decimal? {
            guard let path else { return nil }
            return try path.read(item).optionalPrice()
        }
        func amount(_ path: DataPath?) throws(JSONDecodingError) -> Decimal? {
            guard let path else { return nil }
            return try path.read(item).optionalAmount()
        }
        var percent = try decimal(fields.changePercent)
        if let fraction = try decimal(fields.changeFraction) { percent = fraction * 100 }
        var time: Timestamp?
        if let path = fields.time {
            let field = path.read(item)
            // A venue file that declares seconds for milliseconds puts its quotes in year 56573:
            // outside the bounds, the entry fails instead of making every FX rate look old.
            if field.isPresent { time = try field.venueTime(try timeFormat.read(field)) }
        }
        return Quote(
            exchange: descriptor.id, market: market, last: try fields.last.read(item).price(),
            open: try price(fields.open), high: try price(fields.high), low: try price(fields.low),
            previousClose: try price(fields.previousClose), change: try decimal(fields.change),
            changePercent: percent, changeBasis: changeBasis,
            baseVolume: try amount(fields.baseVolume), quoteVolume: try amount(fields.quoteVolume), timestamp: time)
    }
}
