import Foundation
import Hummingbird

/// The two price APIs walletwatch can use: CoinGecko's `/api/v3/simple/price` (under
/// `/coingecko`: every coin of the ``PriceTable``, several in one request) and mempool.space's
/// `/api/v1/prices` (under `/mempool`: bitcoin only). Their history endpoints are
/// ``PriceHistoryRoutes``.
struct PriceRoutes {
    let state: SimulatorState

    /// mempool.space lists these first, in this order; others follow alphabetically.
    static let mempoolOrder = ["USD", "EUR", "GBP", "CAD", "CHF", "AUD", "JPY"]

    func register(on router: Router<SimRequestContext>) {
        let refusal = Response.text("Method Not Allowed", status: .methodNotAllowed)
        router.group("coingecko/api/v3").add(middleware: GetOnlyMiddleware(refusal: refusal))
            .on("simple/price") { request, context in try await coingecko(request, context) }
        router.group("mempool/api").add(middleware: GetOnlyMiddleware(refusal: refusal))
            .on("v1/prices") { _, context in try await mempool(context) }
    }

    /// `?ids=bitcoin,ethereum&vs_currencies=usd,eur` -> `{"bitcoin":{"usd":...,"eur":...},
    /// "ethereum":{...}}`: each id asked that the table has, in the order asked, with the
    /// requested currencies it has a price in, lower-case, in the order asked. An id the table
    /// does not have is left out, as CoinGecko leaves out an id it does not know.
    private func coingecko(_ request: Request, _ context: SimRequestContext) async throws -> Response {
        let query = request.uri.queryParameters
        guard let ids = query["ids"], let currencies = query["vs_currencies"] else {
            let missing = query["ids"] == nil ? "ids" : "vs_currencies"
            return .jsonError(["error": "Missing parameter \(missing)"], status: .badRequest)
        }
        let table = await state.prices
        var seenIDs: Set<String> = []
        var seen: Set<String> = []
        let codes = Self.list(currencies).filter { seen.insert($0).inserted }
        let coins = Self.list(ids).filter { seenIDs.insert($0).inserted }.compactMap { id in
            table.prices(of: id).map { prices in
                CoinQuotes(id: id, quotes: PriceQuotes(quotes: codes.compactMap { code in prices[code.uppercased()].map { PriceQuotes.Quote(currency: code, price: $0) } }))
            }
        }
        return try context.json(SimplePrices(coins: coins))
    }

    /// `{"time": <unix>, "USD": ..., "EUR": ..., ...}`.
    private func mempool(_ context: SimRequestContext) async throws -> Response {
        let prices = await state.prices.prices
        let codes = Self.mempoolOrder.filter { prices[$0] != nil }
            + prices.keys.filter { !Self.mempoolOrder.contains($0) }.sorted()
        let quotes = codes.compactMap { code in prices[code].map { PriceQuotes.Quote(currency: code, price: $0) } }
        return try context.json(PriceQuotes(time: state.clock.now().unixSeconds, quotes: quotes))
    }

    /// The comma-separated values of a query parameter, lower-case, trimmed.
    private static func list(_ text: Substring) -> [String] {
        text.lowercased().split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
    }

}

/// One coin's prices in a `simple/price` answer.
struct CoinQuotes: Sendable {
    let id: String
    let quotes: PriceQuotes
}

/// CoinGecko's `simple/price` answer: one object per coin, in the order given.
struct SimplePrices: Encodable {
    let coins: [CoinQuotes]

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: DynamicKey.self)
        for coin in coins { try c.encode(coin.quotes, forKey: DynamicKey(coin.id)) }
    }
}

/// Prices as one JSON object, currencies in the order given (`{"usd":65000.12,"eur":60012.5}`),
/// after mempool.space's `time` when there is one.
struct PriceQuotes: Encodable {
    /// One currency's price.
    struct Quote {
        let currency: String
        let price: Decimal
    }

    var time: Int64?
    var quotes: [Quote]

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: DynamicKey.self)
        try c.encodeIfPresent(time, forKey: DynamicKey("time"))
        for quote in quotes { try c.encode(PriceTable.rounded(quote.price), forKey: DynamicKey(quote.currency)) }
    }
}
