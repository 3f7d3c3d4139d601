import Foundation
import WalletWatchCore
import WalletWatchStore

/// Values transactions in the display currency at their dates (`value_at_date`, SPEC.md
/// section 17) with a rate of that UTC day (``Pricer/unitPrice(_:onDayOf:)``: the day's latest
/// rate at or before the transaction, else its first one after): a daily price backfilled or
/// imported for the day values every transaction of the day as the portfolio figures do. A day
/// without any rate gives null rather than an older day's price. Only the part of the rate
/// history the listed days can need is read.
struct TransactionValuer: Sendable {
    let database: AppDatabase
    let preferences: Preferences

    /// `listings`, each with its value (nil amount where its day has no rate).
    func valued(_ listings: [TransactionListing]) throws -> [TransactionListing] {
        guard let from = listings.map(\.transaction.date).min(), let through = listings.map(\.transaction.date).max() else { return listings }
        let display = try preferences.displayCurrency()
        let currencies = Set(listings.map(\.currency)).union([display])
        let endOfLastDay = through.day.lastInstant
        let pricer = Pricer(history: RateHistory(try database.rateHistory(currencies: currencies, from: from, through: endOfLastDay),
                                                 preferred: [display]),
                            display: display)
        return listings.map { listing in
            var valued = listing
            let amount = pricer.unitPrice(listing.currency, onDayOf: listing.transaction.date)
                .flatMap { Rounding.halfEven(Decimal(minorUnits: listing.transaction.amount) * $0) }
            valued.value = TransactionValue(currency: display, amount: amount)
            return valued
        }
    }
}
