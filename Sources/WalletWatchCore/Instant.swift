/// A point in time, exact to the millisecond, in UTC.
///
/// walletwatch stores every timestamp as ISO 8601 text with milliseconds
/// (`2026-11-02T10:00:00.000Z`). Keeping instants as integer milliseconds makes ordering exact
/// and "one millisecond later" (the allocation-history rule of SPEC.md section 5) trivial.
public struct Instant: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Milliseconds since 1970-01-01T00:00:00Z.
    public let millisecondsSinceEpoch: Int64

    public init(millisecondsSinceEpoch: Int64) {
        self.millisecondsSinceEpoch = millisecondsSinceEpoch
    }

    /// The instant `milliseconds` later (earlier when negative).
    public func adding(milliseconds: Int64) -> Instant {
        Instant(millisecondsSinceEpoch: millisecondsSinceEpoch + milliseconds)
    }

    /// The instant `seconds` later (earlier when negative).
    public func adding(seconds: Int64) -> Instant { adding(milliseconds: seconds * 1000) }

    /// Whole seconds from `other` to this instant (negative when this one is earlier).
    public func seconds(since other: Instant) -> Int64 {
        (millisecondsSinceEpoch - other.millisecondsSinceEpoch) / 1000
    }

    public static func < (lhs: Instant, rhs: Instant) -> Bool {
        lhs.millisecondsSinceEpoch < rhs.millisecondsSinceEpoch
    }

    /// The UTC calendar day this instant falls on.
    public var day: Day {
        Day(daysSinceEpoch: Int64(floorDivide(millisecondsSinceEpoch, Instant.millisecondsPerDay)))
    }

    /// The UTC month this instant falls in (`yyyy-MM`).
    public var monthLabel: MonthLabel { day.monthLabel }

    /// ISO 8601 in UTC with milliseconds: `2026-11-02T10:00:00.000Z`.
    public var iso8601: String {
        withISO8601Bytes { String(decoding: $0, as: UTF8.self) }
    }

    /// Calls `body` with the 24 bytes of ``iso8601`` without allocating (the ingest's hot path
    /// binds them straight into SQLite).
    public func withISO8601Bytes<T>(_ body: (UnsafeBufferPointer<UInt8>) throws -> T) rethrows -> T {
        let days = floorDivide(millisecondsSinceEpoch, Instant.millisecondsPerDay)
        let msOfDay = millisecondsSinceEpoch - days * Instant.millisecondsPerDay
        let date = Day(daysSinceEpoch: days)
        return try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { bytes in
            func put(_ value: Int64, at offset: Int, width: Int) {
                var value = value
                for index in stride(from: offset + width - 1, through: offset, by: -1) {
                    bytes[index] = UInt8(truncatingIfNeeded: 48 + value % 10)
                    value /= 10
                }
            }
            put(Int64(date.year), at: 0, width: 4)
            bytes[4] = 45; put(Int64(date.month), at: 5, width: 2)
            bytes[7] = 45; put(Int64(date.dayOfMonth), at: 8, width: 2)
            bytes[10] = 84; put(msOfDay / 3_600_000, at: 11, width: 2)
            bytes[13] = 58; put(msOfDay / 60_000 % 60, at: 14, width: 2)
            bytes[16] = 58; put(msOfDay / 1000 % 60, at: 17, width: 2)
            bytes[19] = 46; put(msOfDay % 1000, at: 20, width: 3)
            bytes[23] = 90
            return try body(UnsafeBufferPointer(bytes))
        }
    }

    public var description: String { iso8601 }

    static let millisecondsPerDay: Int64 = 86_400_000

    /// Parses ISO 8601 with a time and a zone: `2026-11-02T10:00:00Z`,
    /// `2026-11-02T10:00:00.5+01:00`. Fractions beyond milliseconds are truncated. Nil when malformed.
    public init?(iso8601 text: String) {
        var text = text
        let parsed = text.withUTF8 { Instant.parse($0) }
        guard let parsed else { return nil }
        self = parsed
    }

    /// Parses ISO 8601 from UTF-8 bytes without allocating (used by the ingest hot path).
    public static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Instant? {
        var reader = DigitReader(bytes: bytes)
        guard let year = reader.number(4), reader.expect(45),
              let month = reader.number(2), reader.expect(45),
              let dayOfMonth = reader.number(2),
              reader.expect(84) || reader.expect(116) || reader.expect(32),
              let hour = reader.number(2), reader.expect(58),
              let minute = reader.number(2), reader.expect(58),
              let second = reader.number(2)
        else { return nil }
        var millis: Int64 = 0
        if reader.expect(46) || reader.expect(44) {
            var digits = 0
            while let digit = reader.digit() {
                if digits < 3 { millis = millis * 10 + Int64(digit) }
                digits += 1
            }
            guard digits > 0 else { return nil }
            for _ in digits..<max(digits, 3) { millis *= 10 }
        }
        var offsetMinutes: Int64 = 0
        if reader.expect(90) || reader.expect(122) {
            // UTC
        } else if let sign = reader.sign() {
            guard let offsetHours = reader.number(2) else { return nil }
            _ = reader.expect(58)
            guard let offsetMins = reader.number(2), offsetHours < 24, offsetMins < 60 else { return nil }
            offsetMinutes = sign * (offsetHours * 60 + offsetMins)
        } else {
            return nil
        }
        guard reader.atEnd, hour < 24, minute < 60, second < 61,
              let day = Day(year: Int(year), month: Int(month), day: Int(dayOfMonth))
        else { return nil }
        let seconds = day.daysSinceEpoch * 86_400 + hour * 3600 + minute * 60 + second - offsetMinutes * 60
        return Instant(millisecondsSinceEpoch: seconds * 1000 + millis)
    }
}

/// Reads fixed-width decimal fields from UTF-8 bytes.
private struct DigitReader {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    var atEnd: Bool { index == bytes.count }

    mutating func digit() -> Int? {
        guard index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 else { return nil }
        defer { index += 1 }
        return Int(bytes[index] - 48)
    }

    mutating func number(_ width: Int) -> Int64? {
        var value: Int64 = 0
        for _ in 0..<width {
            guard let digit = digit() else { return nil }
            value = value * 10 + Int64(digit)
        }
        return value
    }

    mutating func expect(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    mutating func sign() -> Int64? {
        if expect(43) { return 1 }
        if expect(45) { return -1 }
        return nil
    }
}

/// Integer division rounding toward negative infinity (instants before 1970 stay correct).
func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
    let quotient = value / divisor
    return (value % divisor != 0 && (value < 0) != (divisor < 0)) ? quotient - 1 : quotient
}
