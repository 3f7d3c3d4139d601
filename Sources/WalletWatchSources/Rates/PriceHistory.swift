import Foundation
import WalletWatchCore

/// One usable point of a provider's price history: one unit of a pair's base cost `price` units
/// of its quote at `instant`.
public struct HistoricalPrice: Sendable, Hashable {
    public let instant: Instant
    public let price: Decimal

    public init(instant: Instant, price: Decimal) {
        self.instant = instant
        self.price = price
    }
}

/// A point of a history answer that was left out, and why: its price was null, zero,
/// negative or not a number, or its timestamp repeated or went back against the answer's order,
/// or lay in the future. Nothing of it is stored.
public struct SkippedPrice: Sendable, Hashable, CustomStringConvertible {
    /// Where in the answer: `prices[41]`.
    public let field: String
    public let pair: CurrencyPair
    public let reason: String

    public init(field: String, pair: CurrencyPair, reason: String) {
        self.field = field
        self.pair = pair
        self.reason = reason
    }

    public var description: String { "\(field) \(pair): \(reason)" }
}

/// A provider's answer for a span of its price history: the usable points of each pair,
/// oldest first, and the points it left out.
public struct PriceHistoryAnswer: Sendable, Equatable {
    public var points: [CurrencyPair: [HistoricalPrice]]
    public var skipped: [SkippedPrice]

    public init(points: [CurrencyPair: [HistoricalPrice]] = [:], skipped: [SkippedPrice] = []) {
        self.points = points
        self.skipped = skipped
    }
}

/// Collects the points of a history answer in the order the provider promises (CoinGecko:
/// oldest first; mempool: newest first), keeping a point only when its price is a positive
/// number and its timestamp continues that order after the last point kept. A point is
/// compared with the last one kept, not merely the last one read: a point without a price
/// says nothing about the order.
struct PriceHistoryCollector {
    /// A price as read: usable, or why not.
    enum Value {
        case price(Decimal)
        case unusable(String)
    }

    let ascending: Bool
    /// Points after this instant are in the future: skipped.
    let now: Instant
    private var kept: [CurrencyPair: [HistoricalPrice]] = [:]
    private(set) var skipped: [SkippedPrice] = []

    init(ascending: Bool, now: Instant) {
        self.ascending = ascending
        self.now = now
    }

    /// Reads one price value leniently: a number, or the reason it is no price (null, zero,
    /// negative, a string or anything else that is not a number). Malformed JSON still throws.
    static func read(_ reader: inout JSONReader) throws -> Value {
        switch reader.peekKind() {
        case .null:
            _ = reader.readNull()
            return .unusable("null")
        case .number:
            let value = try reader.readDecimal()
            return value > 0 ? .price(value) : .unusable(value == 0 ? "zero" : "negative (\(value))")
        case .string:
            return .unusable("not a number (\(JSONReader.shown(try reader.readString())))")
        default:
            try reader.skipValue()
            return .unusable("not a number")
        }
    }

    mutating func add(field: String, pair: CurrencyPair, instant: Instant, value: Value) {
        func skip(_ reason: String) { skipped.append(SkippedPrice(field: field, pair: pair, reason: reason)) }
        switch value {
        case .unusable(let reason):
            skip(reason)
        case .price(let price):
            if instant > now { return skip("timestamp \(instant.iso8601) is in the future") }
            if let last = kept[pair]?.last {
                if instant == last.instant { return skip("timestamp \(instant.iso8601) repeats the one before") }
                if (instant < last.instant) == ascending {
                    return skip("timestamp \(instant.iso8601) is out of order (\(ascending ? "before" : "after") \(last.instant.iso8601), the one before)")
                }
            }
            kept[pair, default: []].append(HistoricalPrice(instant: instant, price: price))
        }
    }

    /// What was kept, oldest first.
    var answer: PriceHistoryAnswer {
        PriceHistoryAnswer(points: ascending ? kept : kept.mapValues { $0.reversed() }, skipped: skipped)
    }
}
