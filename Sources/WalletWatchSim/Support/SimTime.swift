/// An instant in UTC, exact to the millisecond, written the way barkd's chrono does it
/// (`2026-11-21T12:00:00Z`, or `2026-11-21T12:00:00.250Z` when it has milliseconds).
///
/// Milliseconds, not nanoseconds, because walletwatch keeps instants to the millisecond: a
/// notification time that a client parses and sends back as `since` must compare equal.
public struct SimTime: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// Milliseconds since 1970-01-01T00:00:00Z.
    public var milliseconds: Int64

    /// The instant `milliseconds` after the Unix epoch.
    public init(milliseconds: Int64) {
        self.milliseconds = milliseconds
    }

    /// The instant `seconds` after the Unix epoch.
    public init(unixSeconds seconds: Int64) {
        self.milliseconds = seconds * 1000
    }

    /// Parses RFC 3339 / ISO 8601 with a zone (`Z`, `+02:00`, `+0200`); fractions beyond
    /// milliseconds are truncated. A space may stand for a `+` (an unescaped `+` in a query).
    public init?(iso8601 text: String) {
        guard let parsed = SimTime.parse(Array(text.utf8)) else { return nil }
        self = parsed
    }

    /// Whole seconds since the Unix epoch (rounded down).
    public var unixSeconds: Int64 { floorDiv(milliseconds, 1000) }

    /// The instant `seconds` later (earlier when negative).
    public func adding(seconds: Int64) -> SimTime { SimTime(milliseconds: milliseconds + seconds * 1000) }

    /// The instant `milliseconds` later (earlier when negative).
    public func adding(milliseconds delta: Int64) -> SimTime { SimTime(milliseconds: milliseconds + delta) }

    public static func < (lhs: SimTime, rhs: SimTime) -> Bool { lhs.milliseconds < rhs.milliseconds }

    /// RFC 3339 in UTC with `Z`; milliseconds only when not zero (chrono's `AutoSi`).
    public var iso8601: String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(24)
        append(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    public var description: String { iso8601 }

    /// Appends the RFC 3339 text to `bytes` without building a String (the streaming hot path).
    func append(to bytes: inout [UInt8]) {
        let days = floorDiv(milliseconds, 86_400_000)
        let msOfDay = milliseconds - days * 86_400_000
        let (year, month, day) = SimTime.civil(fromDays: days)
        func put(_ value: Int64, _ width: Int) {
            // Zero-padded, written straight into `bytes` (this runs three times per movement).
            let start = bytes.count
            var value = value
            for _ in 0..<width {
                bytes.append(UInt8(truncatingIfNeeded: 48 + value % 10))
                value /= 10
            }
            bytes[start...].reverse()
        }
        put(year, 4); bytes.append(45); put(month, 2); bytes.append(45); put(day, 2)
        bytes.append(84)
        put(msOfDay / 3_600_000, 2); bytes.append(58)
        put(msOfDay / 60_000 % 60, 2); bytes.append(58)
        put(msOfDay / 1000 % 60, 2)
        if msOfDay % 1000 != 0 {
            bytes.append(46)
            put(msOfDay % 1000, 3)
        }
        bytes.append(90)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let parsed = SimTime(iso8601: text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "not an RFC 3339 instant: \(text)")
        }
        self = parsed
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(iso8601)
    }

    // Howard Hinnant's days-from-civil algorithms: exact for the proleptic Gregorian calendar.
    static func days(fromCivil year: Int64, _ month: Int64, _ day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = floorDiv(y, 400)
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func civil(fromDays days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = floorDiv(z, 146_097)
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    static func parse(_ bytes: [UInt8]) -> SimTime? {
        var index = 0
        func number(_ width: Int) -> Int64? {
            guard index + width <= bytes.count else { return nil }
            var value: Int64 = 0
            for offset in 0..<width {
                let byte = bytes[index + offset]
                guard byte >= 48, byte <= 57 else { return nil }
                value = value * 10 + Int64(byte - 48)
            }
            index += width
            return value
        }
        func expect(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }
        guard let year = number(4), expect(45), let month = number(2), expect(45), let day = number(2),
              (1...12).contains(month), (1...31).contains(day) else { return nil }
        guard index < bytes.count, [84, 116, 32].contains(bytes[index]) else { return nil }
        index += 1
        guard let hour = number(2), expect(58), let minute = number(2), expect(58), let second = number(2),
              hour < 24, minute < 60, second < 61 else { return nil }
        var millis: Int64 = 0
        if expect(46) {
            var digits = 0
            while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 {
                if digits < 3 { millis = millis * 10 + Int64(bytes[index] - 48) }
                digits += 1
                index += 1
            }
            guard digits > 0 else { return nil }
            if digits < 3 {
                for _ in digits..<3 { millis *= 10 }
            }
        }
        var offsetMinutes: Int64 = 0
        guard index < bytes.count else { return nil }
        switch bytes[index] {
        case 90, 122:
            index += 1
        case 43, 45, 32:
            let sign: Int64 = bytes[index] == 45 ? -1 : 1
            index += 1
            guard let hours = number(2) else { return nil }
            _ = expect(58)
            guard let minutes = number(2), hours < 24, minutes < 60 else { return nil }
            offsetMinutes = sign * (hours * 60 + minutes)
        default:
            return nil
        }
        guard index == bytes.count else { return nil }
        let days = days(fromCivil: year, month, day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetMinutes * 60
        return SimTime(milliseconds: seconds * 1000 + millis)
    }
}

/// Division rounding towards negative infinity (times before 1970 stay correct).
func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
    let quotient = a / b
    return (a % b != 0 && (a < 0) != (b < 0)) ? quotient - 1 : quotient
}
