import Foundation

/// A price read from a file of daily prices, with the line it came from.
public struct ImportedRate: Hashable, Sendable {
    public let line: Int
    public let pair: CurrencyPair
    /// When the price starts to apply: 00:00 UTC on its date (or the instant written).
    public let instant: Instant
    public let rate: Decimal

    public init(line: Int, pair: CurrencyPair, instant: Instant, rate: Decimal) {
        self.line = line
        self.pair = pair
        self.instant = instant
        self.rate = rate
    }

    /// The date as the file wrote it: `yyyy-MM-dd` for a daily price, else the instant.
    public var dateText: String {
        instant == instant.day.startInstant ? instant.day.description : instant.iso8601
    }
}

/// A line of a rates file that cannot be imported, and why.
public struct RateImportProblem: Error, Hashable, Sendable {
    public let line: Int
    public let reason: String
    public init(line: Int, reason: String) {
        self.line = line
        self.reason = reason
    }
}

/// Reads a CSV of daily prices for `rates import`: a header line naming the columns `date`,
/// `base`, `quote` and `rate` (in any order; other columns are ignored), then one price a
/// line, such as `2026-10-01,BTC,USD,61250.50`: one `base` cost `rate` `quote` on that date.
public enum RateImportParser {
    /// The columns a file must name.
    public static let columns = ["date", "base", "quote", "rate"]

    /// Every price of the file, or every problem with it (a file with a problem imports nothing).
    /// Codes are resolved in `registry` (the database's: the user's own units count).
    public static func parse(_ text: String, now: Instant, registry: CurrencyRegistry) -> (rates: [ImportedRate], problems: [RateImportProblem]) {
        let records: [CSV.Record]
        do { records = try CSV.parse(text) } catch {
            return ([], [RateImportProblem(line: error.line, reason: error.reason)])
        }
        guard let header = records.first else {
            return ([], [RateImportProblem(line: 1, reason: "the file is empty; it needs the header \(columns.joined(separator: ",")) and one price a line")])
        }
        let names = header.fields.map { $0.trimmingSpaces.lowercased() }
        let positions = columns.map { names.firstIndex(of: $0) }
        guard positions.allSatisfy({ $0 != nil }) else {
            let missing = zip(columns, positions).filter { $0.1 == nil }.map(\.0)
            return ([], [RateImportProblem(line: header.line, reason: "the header must name the columns \(columns.joined(separator: ",")) (missing: \(missing.joined(separator: ", ")))")])
        }
        let index = positions.map { $0! }
        var rates: [ImportedRate] = []
        var problems: [RateImportProblem] = []
        var seen: [String: ImportedRate] = [:]
        for record in records.dropFirst() {
            guard record.fields.count == header.fields.count else {
                problems.append(RateImportProblem(line: record.line, reason: "\(record.fields.count) field(s) where the header has \(header.fields.count)"))
                continue
            }
            let value = { (column: Int) in record.fields[index[column]].trimmingSpaces }
            switch parseRate(date: value(0), base: value(1), quote: value(2), rate: value(3), line: record.line, now: now, registry: registry) {
            case .failure(let problem):
                problems.append(problem)
            case .success(let rate):
                // BTC/USD and USD/BTC on one date are two prices for the same thing.
                let key = "\([rate.pair.base.code, rate.pair.quote.code].sorted()) \(rate.instant.iso8601)"
                if let first = seen[key] {
                    let reason = first.pair == rate.pair
                        ? "repeats the \(rate.pair) price of \(rate.dateText) from line \(first.line)"
                        : "prices \(rate.pair) on \(rate.dateText), the inverse of line \(first.line)'s \(first.pair); give a date one price"
                    problems.append(RateImportProblem(line: record.line, reason: reason))
                } else {
                    seen[key] = rate
                    rates.append(rate)
                }
            }
        }
        if rates.isEmpty && problems.isEmpty {
            problems.append(RateImportProblem(line: header.line, reason: "no prices after the header"))
        }
        return (rates, problems)
    }

    /// A rate as a user writes one: a positive decimal of at most 30 digits (`61250.50`), never
    /// an exponent or a sign; nil otherwise.
    public static func positiveRate(_ text: String) -> Decimal? {
        guard let parsed = ParsedDecimal(text), !parsed.negative, parsed.integerDigits.count + parsed.fractionDigits.count <= 30,
              let decimal = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")), decimal > 0
        else { return nil }
        return decimal
    }

    static func parseRate(date: String, base: String, quote: String, rate: String, line: Int, now: Instant,
                          registry: CurrencyRegistry) -> Result<ImportedRate, RateImportProblem> {
        func problem(_ reason: String) -> Result<ImportedRate, RateImportProblem> { .failure(RateImportProblem(line: line, reason: reason)) }
        guard let instant = Day(date)?.startInstant ?? Instant(iso8601: date) else {
            return problem("date '\(date)' is not a date; write it like 2026-10-01 (or 2026-10-01T12:00:00Z)")
        }
        guard instant <= now else { return problem("date \(date) is in the future") }
        guard let baseCurrency = try? registry.currency(base) else { return problem("base '\(base)' is not a currency; use one of `walletwatch currency list`, such as BTC, ETH or USD") }
        guard let quoteCurrency = try? registry.currency(quote) else { return problem("quote '\(quote)' is not a currency; use one of `walletwatch currency list`, such as USD or EUR") }
        guard baseCurrency != quoteCurrency else { return problem("base and quote are both \(baseCurrency.code); a rate is between two currencies") }
        guard let decimal = positiveRate(rate) else {
            return problem("rate '\(rate)' is not a positive decimal number; write it like 61250.50")
        }
        return .success(ImportedRate(line: line, pair: CurrencyPair(base: baseCurrency, quote: quoteCurrency), instant: instant, rate: decimal))
    }
}
