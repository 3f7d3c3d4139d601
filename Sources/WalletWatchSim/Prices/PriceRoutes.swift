/// The two price APIs walletwatch can use: CoinGecko's `/api/v3/simple/price` (under
/// `/coingecko`) and mempool.space's `/api/v1/prices` (under `/mempool`).
struct PriceRoutes: Sendable {
    let state: SimulatorState

    /// mempool.space lists these first, in this order; others follow alphabetically.
    static let mempoolOrder = ["USD", "EUR", "GBP", "CAD", "CHF", "AUD", "JPY"]

    /// `GET /coingecko/api/v3/simple/price?ids=bitcoin&vs_currencies=usd,eur`: only the
    /// requested currencies that have a price, lower-case, in the order asked.
    func coingecko(_ request: SimRequest) async -> SimResponse {
        guard request.method == "GET" else { return .text("Method Not Allowed", status: 405) }
        guard let ids = request.parameters["ids"] else { return coingeckoError("Missing parameter ids") }
        guard let currencies = request.parameters["vs_currencies"] else {
            return coingeckoError("Missing parameter vs_currencies")
        }
        let prices = await state.prices
        var out = JSONBuffer()
        out.beginObject()
        if ids.lowercased().split(separator: ",").map({ $0.trimmingSpaces }).contains("bitcoin") {
            out.key("bitcoin")
            out.beginObject()
            var seen: Set<String> = []
            for currency in currencies.lowercased().split(separator: ",").map(\.trimmingSpaces) where !seen.contains(currency) {
                seen.insert(currency)
                if let price = prices[currency] {
                    out.key(currency)
                    out.number(PriceTable.jsonNumber(price))
                }
            }
            out.endObject()
        }
        out.endObject()
        return SimResponse(status: 200, headers: [("Content-Type", "application/json")], body: .bytes(out.bytes))
    }

    /// `GET /mempool/api/v1/prices`: `{"time": <unix>, "USD": ..., "EUR": ..., ...}`.
    func mempool(_ request: SimRequest) async -> SimResponse {
        guard request.method == "GET" else { return .text("Method Not Allowed", status: 405) }
        let prices = await state.prices
        let now = state.clock.now()
        let codes = PriceRoutes.mempoolOrder.filter { prices.prices[$0] != nil }
            + prices.prices.keys.filter { !PriceRoutes.mempoolOrder.contains($0) }.sorted()
        var out = JSONBuffer()
        out.beginObject()
        out.field("time", now.unixSeconds)
        for code in codes {
            if let price = prices.prices[code] {
                out.key(code)
                out.number(PriceTable.jsonNumber(price))
            }
        }
        out.endObject()
        return SimResponse(status: 200, headers: [("Content-Type", "application/json")], body: .bytes(out.bytes))
    }

    private func coingeckoError(_ message: String) -> SimResponse {
        var out = JSONBuffer()
        out.beginObject()
        out.field("error", message)
        out.endObject()
        return SimResponse(status: 400, headers: [("Content-Type", "application/json")], body: .bytes(out.bytes))
    }
}

extension Substring {
    var trimmingSpaces: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
