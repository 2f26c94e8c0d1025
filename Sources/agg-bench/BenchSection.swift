/// The sections of agg-bench, in the order they run; `--only` names them by number.
enum BenchSection: Int, CaseIterable, Comparable {
    case decoding = 1, fanOut, coldStart, compare, marketScale, premiumBoard, record, arb, streamDecoding, reconnect

    /// The section numbered `text` (`"5"`), if there is one.
    init?(number text: String) {
        guard let number = Int(text), let section = BenchSection(rawValue: number) else { return nil }
        self = section
    }

    /// What the section measures, as `--help` lists it.
    var summary: String {
        switch self {
        case .decoding:
            "Decoding: parse + decode + normalize of Bithumb's 480-coin ALL_KRW answer (ms, MB/s), against Foundation."
        case .fanOut: "Fan-out: 1 to 16 venues on a loopback server, each answering after 300 ms (wall / 300 ms)."
        case .coldStart: "Cold start: the whole process of 'agg quote BTC --exchange bithumb' (ms) and its peak RSS."
        case .compare: "Compare: 'agg compare BTC --usdt market' with every answer 400 ms late (wall / 400 ms)."
        case .marketScale:
            "Market scale: 'agg quote --all' against one coin in paired runs; rendering and caching 2,000 quotes."
        case .premiumBoard:
            "Premium board: 'agg premium' over every venue, some answers late; decoding every all-tickers answer."
        case .record:
            "Record: 'agg record --premium''s loop over 8 venues + 3 FX sources: CPU a tick, RSS growth, store rows/s."
        case .arb:
            "Arb: 270 routes walked with fees and break-even (ms CPU); 'agg arb' against 'agg quote' on two venues."
        case .streamDecoding:
            "Stream decoding: each streaming venue's ticker messages read by its codec on one core (msg/s)."
        case .reconnect:
            "Reconnect: each streaming venue's stream dropped on loopback: drop to first fresh value, backoff, snapshot."
        }
    }

    /// Runs the section and prints its lines.
    func run(_ bench: Bench) async throws {
        switch self {
        case .decoding: try DecodingSection.run(bench)
        case .fanOut: try await FanOutSection.run(bench)
        case .coldStart: try ColdStartSection.run(bench)
        case .compare: try CompareSection.run(bench)
        case .marketScale: try MarketScaleSection.run(bench)
        case .premiumBoard: try await PremiumBoardSection.run(bench)
        case .record: try await RecordSection.run(bench)
        case .arb: try ArbSection.run(bench)
        case .streamDecoding: try StreamDecodingSection.run(bench)
        case .reconnect: try await ReconnectSection.run(bench)
        }
    }

    static func < (lhs: BenchSection, rhs: BenchSection) -> Bool {
        lhs.rawValue < rhs.rawValue
    }
}
