import Foundation
import GRDB
import WalletWatchCore

/// What an automatic saving plan books on a due date (SPEC.md sections 19 and 25): its amount
/// in the asset's currency. A plan in another currency ("100 USD a month into ETH") books
/// amount / price at its date in the asset's smallest unit (wei), rounded half to even once:
/// the price of the due date's UTC day when the history has one (the day's price a backfill or
/// an import stores at 00:00, or one fetched that day), else the latest before it (SPEC.md
/// section 13's rate at D), through any route ``RateHistory`` finds (ETH/USD, or a cross).
enum PlanBooking {
    enum Outcome: Equatable {
        /// The amount to record, in the asset's smallest unit (above 0).
        case amount(Int128)
        /// No rate of `pair` (asset currency in the plan's) at the date.
        case noRate(CurrencyPair)
        /// The amount rounds to nothing at the pair's rate.
        case zero(CurrencyPair)
    }

    static func amount(_ money: Money, into currency: Currency, on due: Day, db: Database) throws -> Outcome {
        guard money.currency != currency else { return .amount(money.minorUnits) }
        let pair = CurrencyPair(base: currency, quote: money.currency)
        let history = RateHistory(try AppDatabase.rateHistory(db, currencies: [money.currency, currency], window: (due.startInstant, due.lastInstant)))
        guard let quote = history.quote(from: money.currency, to: currency, onDayOf: due.startInstant)
                ?? history.quote(from: money.currency, to: currency, at: due.startInstant),
              let converted = RateTable.convert(money, to: currency, quote: quote)
        else { return .noRate(pair) }
        return converted.minorUnits > 0 ? .amount(converted.minorUnits) : .zero(pair)
    }
}
