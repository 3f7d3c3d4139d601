/// The due dates of a plan: its start, then every day, week or month after it.
///
/// A monthly plan keeps the day of the month of its start; in a month that has no such day it
/// falls due on the month's last day, and it returns to its own day in the next month that has
/// it (started on the 31st: Jan 31, Feb 28, Mar 31, Apr 30), as calendars and banks' standing
/// orders do. Due dates are UTC days, like month labels (SPEC.md section 2).
public enum SavingSchedule {
    /// The `index`-th due date (0 is the start).
    public static func due(_ index: Int, start: Day, every: PlanFrequency) -> Day {
        switch every {
        case .day: return Day(daysSinceEpoch: start.daysSinceEpoch + Int64(index))
        case .week: return Day(daysSinceEpoch: start.daysSinceEpoch + 7 * Int64(index))
        case .month:
            let months = start.month - 1 + index
            let year = start.year + months / 12
            let month = months % 12 + 1
            return Day(year: year, month: month, day: min(start.dayOfMonth, Day.daysIn(month: month, year: year)))!
        }
    }

    /// The due dates after `last` (all from the start when nil) up to and including `through`.
    public static func dues(start: Day, every: PlanFrequency, after last: Day?, through: Day) -> [Day] {
        var result: [Day] = []
        var index = firstIndex(start: start, every: every, after: last)
        while true {
            let day = due(index, start: start, every: every)
            guard day <= through else { return result }
            result.append(day)
            index += 1
        }
    }

    /// The first due date after `last` (the start when nil).
    public static func next(start: Day, every: PlanFrequency, after last: Day?) -> Day {
        due(firstIndex(start: start, every: every, after: last), start: start, every: every)
    }

    /// The index of the first due date after `last`, found without walking every earlier date.
    static func firstIndex(start: Day, every: PlanFrequency, after last: Day?) -> Int {
        guard let last, last >= start else { return 0 }
        var index: Int
        switch every {
        case .day: index = Int(last.daysSinceEpoch - start.daysSinceEpoch)
        case .week: index = Int((last.daysSinceEpoch - start.daysSinceEpoch) / 7)
        case .month: index = (last.year - start.year) * 12 + (last.month - start.month)
        }
        // `index` is the date at or just before `last`; step past it.
        while due(index, start: start, every: every) <= last { index += 1 }
        return index
    }
}

/// The 7 days in which a reminder's deposits count (SPEC.md section 19): from the start of the
/// due date (UTC) to the start of the day 7 days later, that instant excluded.
public struct ReminderWindow: Hashable, Sendable {
    /// Midnight UTC of the due date (included).
    public let start: Instant
    /// Midnight UTC 7 days later (excluded): when an uncovered reminder is missed.
    public let end: Instant

    /// How many days a reminder waits for its deposits.
    public static let days: Int64 = 7

    /// The window of a reminder due on `due`.
    public init(due: Day) {
        start = due.startInstant
        end = Day(daysSinceEpoch: due.daysSinceEpoch + Self.days).startInstant
    }

    /// Whether `instant` is inside the window.
    public func contains(_ instant: Instant) -> Bool { start <= instant && instant < end }
}
