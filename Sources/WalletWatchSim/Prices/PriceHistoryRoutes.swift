import Foundation
import Hummingbird

/// The price APIs' history endpoints, served from the daily ``PriceSeries``:
/// CoinGecko's `/coins/{id}/market_chart/range?vs_currency=usd&from=UNIX&to=UNIX` for every
/// coin of the ``PriceTable`` (each coin's series anchored on its own price) and mempool.space's
/// `/v1/historical-price?currency=EUR[&timestamp=UNIX]` for bitcoin. Nothing after the
/// simulator's clock is served.
struct PriceHistoryRoutes {
    let state: SimulatorState

    /// CoinGecko's public API answers ranges that start within this many days of now.
    static let coingeckoPublicDays: Int64 = 365
    /// Ranges up to this many days get hourly points, longer ones daily points at 00:00 UTC.
    static let coingeckoHourlyDays: Int64 = 90

    func register(on router: Router<SimRequestContext>) {
        let refusal = Response.text("Method Not Allowed", status: .methodNotAllowed)
        router.group("coingecko/api/v3").add(middleware: GetOnlyMiddleware(refusal: refusal))
            .on("coins/:id/market_chart/range") { request, context in try await marketChart(request, context) }
        router.group("mempool/api").add(middleware: GetOnlyMiddleware(refusal: refusal))
            .on("v1/historical-price") { request, context in try await historicalPrice(request, context) }
    }

    // MARK: CoinGecko

    /// `{"prices": [[ms, price], ...], "market_caps": [...], "total_volumes": [...]}`, oldest
    /// first: hourly points for a range of up to 90 days, else one at 00:00 UTC of each day,
    /// and (as CoinGecko does) a last point at now when the range reaches it.
    private func marketChart(_ request: Request, _ context: SimRequestContext) async throws -> Response {
        guard let id = context.parameters.get("id"), let prices = await state.prices.prices(of: id) else {
            return .jsonError(["error": "coin not found"], status: .notFound)
        }
        let query = request.uri.queryParameters
        for name in ["vs_currency", "from", "to"] where query[Substring(name)] == nil {
            return .jsonError(["error": "Missing parameter \(name)"], status: .badRequest)
        }
        guard let from = Self.seconds(query["from"]!), let to = Self.seconds(query["to"]!), from <= to else {
            return .jsonError(["error": "invalid from or to"], status: .badRequest)
        }
        guard let base = prices[String(query["vs_currency"]!).uppercased()] else {
            return .jsonError(["error": "invalid vs_currency"], status: .badRequest)
        }
        let now = state.clock.now().milliseconds
        guard from * 1000 >= now - Self.coingeckoPublicDays * PriceSeries.millisecondsPerDay else {
            return .jsonError(CoinGeckoLimitError(), status: .unauthorized)
        }
        let series = PriceSeries(reference: state.referenceTime)
        let start = from * 1000, end = min(to * 1000, now)
        let step = to - from <= Self.coingeckoHourlyDays * 86_400 ? Int64(3_600_000) : PriceSeries.millisecondsPerDay
        var instants: [Int64] = []
        var instant = (start + step - 1) / step * step
        while instant <= end {
            instants.append(instant)
            instant += step
        }
        if to * 1000 >= now, now >= start, instants.last != now { instants.append(now) }
        let points = instants.compactMap { ms in series.price(base, atMilliseconds: ms).map { ChartPoint(milliseconds: ms, value: $0) } }
        return try context.json(MarketChart(
            prices: points,
            marketCaps: points.map { ChartPoint(milliseconds: $0.milliseconds, value: PriceSeries.cents($0.value * 19_800_000)) },
            totalVolumes: points.map { ChartPoint(milliseconds: $0.milliseconds, value: PriceSeries.cents($0.value * 450_000)) }))
    }

    /// A Unix time as CoinGecko takes it: digits, perhaps with a fraction.
    private static func seconds(_ text: Substring) -> Int64? {
        guard let value = Decimal(string: String(text), locale: Locale(identifier: "en_US_POSIX")), value >= 0,
              text.allSatisfy({ $0.isNumber || $0 == "." })
        else { return nil }
        return NSDecimalNumber(decimal: value).int64Value
    }

    // MARK: mempool

    /// `{"prices": [{"time": UNIX, "EUR": ..., "USD": ...}, ...], "exchangeRates": {...}}`: one
    /// point at 00:00 UTC of each day of the series up to today, newest first (mempool orders
    /// by time descending), with the asked currency and USD. With `timestamp`, only the latest
    /// point before it (mempool's placeholder `{"time": 1279497600, CUR: 0, "USD": 0}` when none).
    private func historicalPrice(_ request: Request, _ context: SimRequestContext) async throws -> Response {
        let query = request.uri.queryParameters
        let prices = await state.prices
        var codes = PriceRoutes.mempoolOrder.filter { prices[$0] != nil }
        if let currency = query["currency"].map({ String($0).uppercased() }) {
            guard prices[currency] != nil else { return .jsonError(["error": "Invalid currency \(currency)"], status: .badRequest) }
            codes = currency == "USD" ? ["USD"] : [currency] + (prices["USD"] != nil ? ["USD"] : [])
        }
        let series = PriceSeries(reference: state.referenceTime)
        let today = PriceSeries.day(ofMilliseconds: state.clock.now().milliseconds)
        var last = today
        if let text = query["timestamp"] {
            guard let timestamp = Int64(text) else { return .jsonError(["error": "Invalid timestamp"], status: .badRequest) }
            // The latest daily point strictly before the timestamp.
            last = min(today, PriceSeries.day(ofMilliseconds: timestamp * 1000 - 1))
        }
        func point(_ day: Int64) -> PriceQuotes {
            PriceQuotes(time: day * 86_400, quotes: codes.map { PriceQuotes.Quote(currency: $0, price: series.price(prices[$0]!, onDay: day)!) })
        }
        var points: [PriceQuotes] = []
        if last >= series.firstDay {
            let days = query["timestamp"] == nil ? Array(stride(from: last, through: series.firstDay, by: -1)) : [last]
            points = days.map(point)
        } else if query["timestamp"] != nil {
            points = [PriceQuotes(time: 1_279_497_600, quotes: codes.map { PriceQuotes.Quote(currency: $0, price: 0) })]
        }
        let latest = today >= series.firstDay ? point(today) : nil
        return try context.json(HistoricalPrices(prices: points, exchangeRates: ExchangeRates(latest: latest)))
    }
}

/// One `[milliseconds, value]` pair of a CoinGecko chart.
struct ChartPoint: Encodable {
    let milliseconds: Int64
    let value: Decimal

    func encode(to encoder: any Encoder) throws {
        var c = encoder.unkeyedContainer()
        try c.encode(milliseconds)
        try c.encode(value)
    }
}

/// CoinGecko's `market_chart/range` answer.
struct MarketChart: Encodable {
    let prices: [ChartPoint]
    let marketCaps: [ChartPoint]
    let totalVolumes: [ChartPoint]

    enum CodingKeys: String, CodingKey {
        case prices, marketCaps = "market_caps", totalVolumes = "total_volumes"
    }
}

/// CoinGecko's refusal of a range beyond the public API's 365 days (HTTP 401).
struct CoinGeckoLimitError: Encodable {
    struct Status: Encodable {
        let errorCode = 10012
        let errorMessage = "Your request exceeds the allowed time range. Public API users are limited to querying historical data within the past 365 days. Upgrade to a paid plan to enjoy full historical data access: https://www.coingecko.com/en/api/pricing. "
        enum CodingKeys: String, CodingKey { case errorCode = "error_code", errorMessage = "error_message" }
    }

    struct Body: Encodable {
        let status = Status()
    }

    let error = Body()
}

/// mempool.space's `historical-price` answer.
struct HistoricalPrices: Encodable {
    let prices: [PriceQuotes]
    let exchangeRates: ExchangeRates
}

/// `{"USDEUR": 0.92, ...}`: each of mempool's currencies per US dollar at the latest price, to
/// the cent (mempool's `computeFx`).
struct ExchangeRates: Encodable {
    let latest: PriceQuotes?

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: DynamicKey.self)
        guard let latest, let usd = latest.quotes.first(where: { $0.currency == "USD" })?.price, usd > 0 else { return }
        for quote in latest.quotes where quote.currency != "USD" {
            try c.encode(PriceSeries.cents(quote.price / usd), forKey: DynamicKey("USD" + quote.currency))
        }
    }
}
