import WalletWatchCore
import WalletWatchStore

extension RateBook {
    /// Imports a CSV of daily prices (`rates import`) into the rate history, in one
    /// transaction. A file with any malformed line imports nothing, and the refusal names the
    /// lines; prices imported before for the same pair and date are refused unless `replace`.
    ///
    /// - parameter source: how the file is named in messages.
    public func importCSV(_ text: String, source: String, replace: Bool) throws -> (result: RateImportResult, rates: [ImportedRate]) {
        let parsed = RateImportParser.parse(text, now: clock.now, registry: try database.currencyRegistry())
        guard parsed.problems.isEmpty else {
            let named = parsed.problems.prefix(5).map { "line \($0.line): \($0.reason)" }.joined(separator: "; ")
            throw Refusal("\(parsed.problems.count) malformed line(s) in \(source), nothing imported (\(named)\(parsed.problems.count > 5 ? "; ..." : ""))")
        }
        return (try database.importRates(parsed.rates, replace: replace, source: source), parsed.rates)
    }
}
