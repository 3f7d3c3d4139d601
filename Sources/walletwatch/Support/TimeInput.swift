import Foundation
import WalletWatchCore
import WalletWatchEngine
import WalletWatchPresentation

/// The CLI formats with the same functions as the web page.
typealias Display = DisplayFormat

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
