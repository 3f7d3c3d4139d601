import WalletWatchCore
import WalletWatchSources
import WalletWatchStore

/// What the rate provider is asked to price (SPEC.md section 25): every coin held or saved
/// towards, against the currencies figures are shown in.
///
/// - Coins: BTC always (every provider prices it, and crosses between money go through it),
///   each currency held (the assets') and each goal or saving-plan currency that is not money,
///   when it has a CoinGecko id (the built-in coins and tokens, the user's units added with
///   `--coingecko`).
/// - Quotes: the `[rates] currencies`, the display currency, and the money the goals, saving
///   plans and assets are in (a bank account in EUR is valued through BTC/EUR).
/// - Priced by hand: a unit in use with no CoinGecko id (`rates set`, `rates import`): no
///   provider is asked for it.
struct PricingPlan: Equatable {
    var coins: [PricedCoin] = []
    var quotes: [Currency] = []
    var handPriced: [Currency] = []

    /// The plan for `inUse` plus `extra` currencies (those of the pairs a figure needs), in a
    /// fixed order: coins BTC first then by code, quotes as configured then by code.
    init(configured: [Currency], display: Currency, inUse: CurrenciesInUse, extra: Set<Currency> = [], registry: CurrencyRegistry) {
        var coins: [PricedCoin] = [.bitcoin]
        var quotes: [Currency] = []
        var hand: [Currency] = []
        func quote(_ currency: Currency) {
            if !quotes.contains(currency) { quotes.append(currency) }
        }
        for currency in configured + [display] { quote(currency) }
        let others = inUse.held.union(inUse.goals).union(inUse.plans).union(extra)
        for currency in others.sorted() {
            if currency.isMoney {
                quote(currency)
            } else if let id = registry.coingeckoID(of: currency) {
                if !coins.contains(where: { $0.currency == currency }) { coins.append(PricedCoin(currency: currency, id: id)) }
            } else {
                hand.append(currency)
            }
        }
        self.coins = coins
        self.quotes = quotes
        handPriced = hand
    }

    /// Every pair a refresh asks for: each coin in each quote (but itself).
    var pairs: [CurrencyPair] {
        coins.flatMap { coin in quotes.filter { $0 != coin.currency }.map { CurrencyPair(base: coin.currency, quote: $0) } }
    }

    /// Whether a provider can price `currency`: money (a quote) or a coin with a CoinGecko id.
    static func fetchable(_ currency: Currency, registry: CurrencyRegistry) -> Bool {
        currency.isMoney || registry.coingeckoID(of: currency) != nil
    }
}
