import WalletWatchCore
import WalletWatchStore

/// The currencies a database knows (SPEC.md section 25): ISO money, the built-in coins and
/// tokens, and the units its user added (`currency add`: a share, a gram of gold, a coin not
/// built in). Every code a user types is resolved here, against the database's own units.
public struct Currencies: Sendable {
    let database: AppDatabase
    let clock: WallClock

    /// The registry of this database: what ``currency(_:)`` resolves against.
    public func registry() throws -> CurrencyRegistry {
        try database.currencyRegistry()
    }

    /// The currency for a code a user typed (any case): ISO, built in, or one of this database's
    /// units; a usage error (exit 64) that says how to add an unknown one.
    public func currency(_ code: String) throws -> Currency {
        try registry().currency(code)
    }

    /// Every currency, ISO money first, then the built-in coins and tokens, then the user's units.
    public func list() throws -> [CurrencyDefinition] {
        try registry().all
    }

    /// Adds a unit of the user's own; refused (exit 65) for a code that is ISO money, built in or
    /// already added, and (exit 64) for a malformed code, decimals or CoinGecko id.
    public func add(code: String, decimals: Int, coingeckoID: String?, name: String?) throws -> CurrencyDefinition {
        try database.addCurrency(code: code, decimals: decimals, coingeckoID: coingeckoID, name: name, now: clock.now)
    }

    /// Removes a unit of the user's own; refused (exit 65) while anything uses it.
    public func remove(code: String) throws {
        try database.removeCurrency(code: code)
    }
}
