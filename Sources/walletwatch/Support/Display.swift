import Foundation
import WalletWatchCore

/// How values look in tables: money with its code, times in the user's time zone.
enum Display {
    static func money(_ minorUnits: Int64, _ currency: Currency) -> String {
        Money(minorUnits: minorUnits, currency: currency).description
    }

    /// `2026-11-02 11:00` in `zone`.
    static func time(_ instant: Instant, _ zone: TimeZone) -> String {
        let local = localInstant(instant, zone).iso8601
        return String(local.prefix(10)) + " " + String(local.dropFirst(11).prefix(5))
    }

    /// `2026-11-02 11:00:05` in `zone`.
    static func timeWithSeconds(_ instant: Instant, _ zone: TimeZone) -> String {
        let local = localInstant(instant, zone).iso8601
        return String(local.prefix(10)) + " " + String(local.dropFirst(11).prefix(8))
    }

    /// An instant shifted by the zone's offset at that instant, so that its UTC fields read as local time.
    static func localInstant(_ instant: Instant, _ zone: TimeZone) -> Instant {
        let date = Date(timeIntervalSince1970: Double(instant.millisecondsSinceEpoch) / 1000)
        return instant.adding(seconds: Int64(zone.secondsFromGMT(for: date)))
    }

    /// `4m 10s`, `3h 5m`, `2d 4h`: how long ago, for ages of balances and rates.
    static func age(seconds: Int64) -> String {
        let seconds = max(0, seconds)
        switch seconds {
        case ..<60: return "\(seconds)s"
        case ..<3600: return "\(seconds / 60)m \(seconds % 60)s"
        case ..<86_400: return "\(seconds / 3600)h \(seconds % 3600 / 60)m"
        default: return "\(seconds / 86_400)d \(seconds % 86_400 / 3600)h"
        }
    }

    /// A fraction as a percentage with one decimal: `12.5%`.
    static func percent(_ numerator: Int64, _ denominator: Int64) -> String {
        guard denominator != 0 else { return "0.0%" }
        let tenths = Rounding.halfEven(Int128(numerator) * 1000, Int128(denominator))
        return Money.majorString(Int64(clamping: tenths), exponent: 1) + "%"
    }
}

/// Parses the times users type: an ISO 8601 instant (`2026-11-02T10:00:00Z`), or a day
/// (`2026-11-02`), which means midnight at the start of that day in the display time zone.
enum TimeInput {
    static func parse(_ text: String, zone: TimeZone, option: String) throws -> Instant {
        if let instant = Instant(iso8601: text) { return instant }
        if let day = Day(text) { return startOf(day, zone) }
        throw UsageError("\(option) '\(text)' is not a date; write 2026-11-02 or 2026-11-02T10:00:00Z")
    }

    /// The last millisecond of a day given as `--until 2026-11-30` (DST-aware), or the instant itself.
    static func parseEnd(_ text: String, zone: TimeZone, option: String) throws -> Instant {
        if let day = Day(text) { return startOf(day.next, zone).adding(milliseconds: -1) }
        return try parse(text, zone: zone, option: option)
    }

    /// Midnight at the start of `day` in `zone`.
    static func startOf(_ day: Day, _ zone: TimeZone) -> Instant {
        let midnightUTC = day.startInstant
        let guess = Date(timeIntervalSince1970: Double(midnightUTC.millisecondsSinceEpoch) / 1000)
        let first = midnightUTC.adding(seconds: -Int64(zone.secondsFromGMT(for: guess)))
        // The offset at the local midnight itself may differ from the one at UTC midnight.
        let corrected = Date(timeIntervalSince1970: Double(first.millisecondsSinceEpoch) / 1000)
        return midnightUTC.adding(seconds: -Int64(zone.secondsFromGMT(for: corrected)))
    }
}
