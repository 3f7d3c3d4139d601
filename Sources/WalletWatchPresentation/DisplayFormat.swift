import Foundation
import WalletWatchCore

/// How values look in the terminal and on the web page: money with its code, times in the
/// user's time zone, ages as `4m 10s`.
public enum DisplayFormat {
    /// An amount with every decimal of its currency and its code: `12.345678901234567891 ETH`
    /// (the page, messages: never shortened).
    public static func money(_ minorUnits: Int128, _ currency: Currency) -> String {
        Money(minorUnits: minorUnits, currency: currency).description
    }

    /// An amount for a terminal table: at most ``Money/readableDecimals`` decimals, a cut one
    /// marked `…` (`12.34567890… ETH`); JSON, CSV and the page carry it whole.
    public static func readable(_ minorUnits: Int128, _ currency: Currency) -> String {
        "\(Money.readableString(minorUnits, exponent: currency.exponent)) \(currency.code)"
    }

    /// What a table shows where a figure is unknown because an exchange rate is missing.
    public static let noRate = "no rate"

    /// What a view shows where a figure is unknown because the rates of `pairs` are missing
    /// (SPEC.md section 25: shown as missing, never as 0, naming the pair): `no rate for ETH/USD`.
    public static func noRate(for pairs: some Sequence<CurrencyPair>) -> String {
        let named = Set(pairs).sorted().map(\.description)
        return named.isEmpty ? noRate : "\(noRate) for \(named.joined(separator: ", "))"
    }

    /// `2026-11-02 11:00` in `zone`.
    public static func time(_ instant: Instant, _ zone: TimeZone) -> String {
        let local = localInstant(instant, zone).iso8601
        return String(local.prefix(10)) + " " + String(local.dropFirst(11).prefix(5))
    }

    /// `2026-11-02 11:00:05` in `zone`.
    public static func timeWithSeconds(_ instant: Instant, _ zone: TimeZone) -> String {
        let local = localInstant(instant, zone).iso8601
        return String(local.prefix(10)) + " " + String(local.dropFirst(11).prefix(8))
    }

    /// An instant shifted by the zone's offset at that instant, so that its UTC fields read as local time.
    public static func localInstant(_ instant: Instant, _ zone: TimeZone) -> Instant {
        let date = Date(timeIntervalSince1970: Double(instant.millisecondsSinceEpoch) / 1000)
        return instant.adding(seconds: Int64(zone.secondsFromGMT(for: date)))
    }

    /// `42s`, `4m 10s`, `3h 5m`, `2d 4h`: how long ago.
    public static func age(seconds: Int64) -> String {
        let seconds = max(0, seconds)
        switch seconds {
        case ..<60: return "\(seconds)s"
        case ..<3600: return "\(seconds / 60)m \(seconds % 60)s"
        case ..<86_400: return "\(seconds / 3600)h \(seconds % 3600 / 60)m"
        default: return "\(seconds / 86_400)d \(seconds % 86_400 / 3600)h"
        }
    }

    /// A fraction as a percentage with one decimal: `12.5%`.
    public static func percent(_ numerator: Int128, _ denominator: Int128) -> String {
        guard denominator != 0 else { return "0.0%" }
        let tenths = Rounding.halfEven(numerator, times: 1000, over: denominator) ?? (numerator < 0 ? .min : .max)
        return Money.majorString(tenths, exponent: 1) + "%"
    }

    /// A return (0.17 = 17%) as a percentage with one decimal: `17.0%`.
    public static func percent(_ fraction: Decimal) -> String {
        guard let tenths = Rounding.halfEven(fraction * 1000) else { return "\(fraction * 100)%" }
        return Money.majorString(tenths, exponent: 1) + "%"
    }

    /// A fraction clamped to 0...1, for bars.
    public static func fill(_ value: Int128, of total: Int128) -> Double {
        // A bar's width only: exact amounts become a ratio of thousandths, then a Double.
        guard total > 0 else { return 1 }
        let thousandths = Rounding.halfEven(max(0, value), times: 1000, over: total) ?? 1000
        return Double(min(1000, thousandths)) / 1000
    }
}
