import Foundation
import WalletWatchCore
import WalletWatchStore

/// Values transactions in the display currency at their dates (`value_at_date`), with the
/// portfolio's own price lookup (``Pricer`` over ``RateHistory``: the latest rate at or before
/// the date, SPEC.md section 13), so that a transaction's value and the cost basis built from
/// it always agree. Only the part of the rate history the listed dates can need is read.
struct TransactionValuer: Sendable {
    let database: AppDatabase
    let preferences: Preferences

    /// `listings`, each with its value (nil amount where no rate is known at or before its date).
    func valued(_ listings: [TransactionListing]) throws -> [TransactionListing] {
        guard let from = listings.map(\.transaction.date).min(), let through = listings.map(\.transaction.date).max() else { return listings }
        let display = try preferences.displayCurrency()
        let currencies = Set(listings.map(\.currency)).union([display, .btc])
        let pricer = Pricer(history: RateHistory(try database.rateHistory(currencies: currencies, from: from, through: through)), display: display)
        return listings.map { listing in
            var valued = listing
            let amount = pricer.unitPrice(listing.currency, at: listing.transaction.date)
                .flatMap { Rounding.halfEven(Decimal(listing.transaction.amount) * $0) }
            valued.value = TransactionValue(currency: display, amount: amount)
            return valued
        }
    }
}
