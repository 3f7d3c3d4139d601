/// A calendar day (proleptic Gregorian), such as a goal's deadline: `2027-06-30`.
public struct Day: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let dayOfMonth: Int

    /// A valid date, or nil (`2026-02-30` is nil).
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month),
              (1...Day.daysIn(month: month, year: year)).contains(day)
        else { return nil }
        self.year = year
        self.month = month
        self.dayOfMonth = day
    }

    /// The day `daysSinceEpoch` days after 1970-01-01 (civil-from-days, H. Hinnant).
    public init(daysSinceEpoch: Int64) {
        let z = daysSinceEpoch + 719_468
        let era = floorDivide(z, 146_097)
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        dayOfMonth = Int(dayOfYear - (153 * shiftedMonth + 2) / 5 + 1)
        month = Int(shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9)
        year = Int(yearOfEra + era * 400 + (month <= 2 ? 1 : 0))
    }

    /// Days since 1970-01-01 (days-from-civil, H. Hinnant).
    public var daysSinceEpoch: Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = floorDivide(y, 400)
        let yearOfEra = y - era * 400
        let m = Int64(month)
        let dayOfYear = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(dayOfMonth) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// Midnight UTC at the start of this day.
    public var startInstant: Instant { Instant(millisecondsSinceEpoch: daysSinceEpoch * Instant.millisecondsPerDay) }

    /// The day's last millisecond (the end of a window that takes in the whole day).
    public var lastInstant: Instant { Instant(millisecondsSinceEpoch: next.startInstant.millisecondsSinceEpoch - 1) }

    /// The month this day is in.
    public var monthLabel: MonthLabel { MonthLabel(year: year, month: month)! }

    /// The day after this one.
    public var next: Day { Day(daysSinceEpoch: daysSinceEpoch + 1) }

    /// `yyyy-MM-dd`.
    public var description: String {
        "\(Day.pad(year, 4))-\(Day.pad(month, 2))-\(Day.pad(dayOfMonth, 2))"
    }

    /// Parses `yyyy-MM-dd`; nil when malformed or not a real date.
    public init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
        else { return nil }
        self.init(year: year, month: month, day: day)
    }

    public static func < (lhs: Day, rhs: Day) -> Bool { lhs.daysSinceEpoch < rhs.daysSinceEpoch }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}

/// A calendar month in UTC, written `yyyy-MM`: the unit of monthly planning and execution.
public struct MonthLabel: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let year: Int
    public let month: Int

    public init?(year: Int, month: Int) {
        guard (1...9999).contains(year), (1...12).contains(month) else { return nil }
        self.year = year
        self.month = month
    }

    /// Parses `yyyy-MM`; nil when malformed.
    public init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 4, parts[1].count == 2,
              let year = Int(parts[0]), let month = Int(parts[1])
        else { return nil }
        self.init(year: year, month: month)
    }

    /// The first day of the month.
    public var firstDay: Day { Day(year: year, month: month, day: 1)! }

    /// Midnight UTC on the first day of the month.
    public var startInstant: Instant { firstDay.startInstant }

    /// The following month.
    public var next: MonthLabel {
        month == 12 ? MonthLabel(year: year + 1, month: 1)! : MonthLabel(year: year, month: month + 1)!
    }

    /// Months from `other` to this one: `2026-12` minus `2026-11` is 1.
    public func months(since other: MonthLabel) -> Int {
        (year - other.year) * 12 + (month - other.month)
    }

    public var description: String { "\(Day.pad(year, 4))-\(Day.pad(month, 2))" }

    public static func < (lhs: MonthLabel, rhs: MonthLabel) -> Bool {
        (lhs.year, lhs.month) < (rhs.year, rhs.month)
    }
}
