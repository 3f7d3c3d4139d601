import Foundation
import Hummingbird

/// The two price APIs walletwatch can use: CoinGecko's `/api/v3/simple/price` (under
/// `/coingecko`) and mempool.space's `/api/v1/prices` (under `/mempool`). Their history
/// endpoints are ``PriceHistoryRoutes``.
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

    /// `?ids=bitcoin&vs_currencies=usd,eur`: only the requested currencies that have a price,
    /// lower-case, in the order asked.
    private func coingecko(_ request: Request, _ context: SimRequestContext) async throws -> Response {
        let query = request.uri.queryParameters
        guard let ids = query["ids"], let currencies = query["vs_currencies"] else {
            let missing = query["ids"] == nil ? "ids" : "vs_currencies"
            return .jsonError(["error": "Missing parameter \(missing)"], status: .badRequest)
        }
        let prices = await state.prices
        guard Self.list(ids).contains("bitcoin") else { return try context.json([String: PriceQuotes]()) }
        var seen: Set<String> = []
        let quotes = Self.list(currencies).filter { seen.insert($0).inserted }.compactMap { currency in
            prices[currency].map { PriceQuotes.Quote(currency: currency, price: $0) }
        }
        return try context.json(["bitcoin": PriceQuotes(quotes: quotes)])
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
