import Foundation

/// Bitcoin's daily price history as the simulated price APIs serve it: a deterministic series
/// anchored on the price table (each currency's price is its price on the reference day), so
/// that a test can compute every figure by hand.
///
/// For a currency priced `P` and a UTC day `n` days before the reference day (negative after it):
///
///     price(n) = P × (2500 − n) / 2500 × (100 + w) / 100,   w = n mod 7 (0...6, also for n < 0)
///
/// rounded to the cent, half up. On the reference day (n = 0) that is `P`. The series starts
/// ``depth`` days before the reference day; earlier days have no price (as mempool has none
/// before 2010-07-19). Hourly points (CoinGecko's granularity for ranges up to 90 days) add a
/// drift within the day: the price at hour `h` (0...23) of a day is
/// `price × (10000 + h) / 10000`, rounded to the cent, half up; at 00:00 it is the day's price.
public struct PriceSeries: Sendable, Hashable {
    /// The series begins this many days before the reference day.
    public static let depth: Int64 = 2400

    /// The reference day, in days since 1970-01-01.
    public let referenceDay: Int64

    /// The series around the UTC day of `reference`.
    public init(reference: SimTime) {
        referenceDay = Self.day(ofMilliseconds: reference.milliseconds)
    }

    /// The first day (days since 1970-01-01) that has a price.
    public var firstDay: Int64 { referenceDay - Self.depth }

    /// The price on `day` (days since 1970-01-01) of a currency whose reference price is `base`;
    /// nil before the series starts.
    public func price(_ base: Decimal, onDay day: Int64) -> Decimal? {
        let n = referenceDay - day
        guard n <= Self.depth else { return nil }
        let wave = ((n % 7) + 7) % 7
        return Self.cents(base * Decimal(2500 - n) * Decimal(100 + wave) / 250_000)
    }

    /// The price at the whole hour that contains `milliseconds` (Unix time).
    public func price(_ base: Decimal, atMilliseconds milliseconds: Int64) -> Decimal? {
        let day = Self.day(ofMilliseconds: milliseconds)
        guard let daily = price(base, onDay: day) else { return nil }
        let hour = (milliseconds - day * Self.millisecondsPerDay) / 3_600_000
        return Self.cents(daily * Decimal(10_000 + hour) / 10_000)
    }

    static let millisecondsPerDay: Int64 = 86_400_000

    /// The UTC day (days since 1970-01-01) of an instant in Unix milliseconds.
    static func day(ofMilliseconds milliseconds: Int64) -> Int64 {
        milliseconds >= 0 ? milliseconds / millisecondsPerDay : -((millisecondsPerDay - 1 - milliseconds) / millisecondsPerDay)
    }

    /// `value` rounded to two decimal places, half up (all prices are positive).
    static func cents(_ value: Decimal) -> Decimal {
        var value = value
        var rounded = Decimal()
        NSDecimalRound(&rounded, &value, 2, .plain)
        return rounded
    }
}
