import Testing
@testable import WalletWatchCore

@Suite("Instants, days and months")
struct TimeTests {
    @Test("ISO 8601 parsing", arguments: [
        ("2026-11-02T10:00:00Z", Int64(1_793_613_600_000)),
        ("2026-11-02T10:00:00.000Z", 1_793_613_600_000),
        ("2026-11-02T10:00:00.5Z", 1_793_613_600_500),
        ("2026-11-02T10:00:00.123456789Z", 1_793_613_600_123),
        ("2026-11-02T11:00:00+01:00", 1_793_613_600_000),
        ("2026-11-02T05:30:00-0430", 1_793_613_600_000),
        ("2026-11-02 10:00:00Z", 1_793_613_600_000),
        ("1970-01-01T00:00:00Z", 0),
        ("1969-12-31T23:59:59.999Z", -1),
    ])
    func parses(text: String, milliseconds: Int64) {
        #expect(Instant(iso8601: text)?.millisecondsSinceEpoch == milliseconds)
    }

    @Test("malformed instants are nil", arguments: [
        "", "2026-11-02", "2026-11-02T10:00:00", "2026-13-02T10:00:00Z", "2026-02-30T10:00:00Z",
        "2026-11-02T24:00:00Z", "2026-11-02T10:60:00Z", "2026-11-02T10:00:00.Z", "2026-11-02T10:00:00Zjunk",
        "26-11-02T10:00:00Z", "2026-11-02T10:00:00+25:00",
    ])
    func malformed(text: String) {
        #expect(Instant(iso8601: text) == nil)
    }

    @Test("formatting is ISO 8601 UTC with milliseconds and round-trips")
    func formatting() {
        #expect(Instant(millisecondsSinceEpoch: 1_793_613_600_500).iso8601 == "2026-11-02T10:00:00.500Z")
        #expect(Instant(millisecondsSinceEpoch: -1).iso8601 == "1969-12-31T23:59:59.999Z")
        var state: UInt64 = 42
        for _ in 0..<2000 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let ms = Int64(state >> 22) - (Int64(1) << 40)
            let instant = Instant(millisecondsSinceEpoch: ms)
            #expect(Instant(iso8601: instant.iso8601) == instant)
        }
    }

    @Test("days: validity, leap years and day numbers")
    func days() {
        #expect(Day("2024-02-29") != nil)
        #expect(Day("2026-02-29") == nil)
        #expect(Day("2000-02-29") != nil)
        #expect(Day("1900-02-29") == nil)
        #expect(Day("2026-11-31") == nil)
        #expect(Day("2026-1-01") == nil)
        #expect(Day(daysSinceEpoch: 0).description == "1970-01-01")
        for number in stride(from: Int64(-800_000), through: 800_000, by: 997) {
            #expect(Day(daysSinceEpoch: number).daysSinceEpoch == number)
        }
    }

    @Test("month labels are UTC months")
    func months() {
        let instant = Instant(iso8601: "2026-11-30T23:30:00-02:00")!
        #expect(instant.monthLabel.description == "2026-12")
        #expect(MonthLabel("2026-12")!.next.description == "2027-01")
        #expect(MonthLabel("2027-06")!.months(since: MonthLabel("2026-11")!) == 7)
        #expect(MonthLabel("2026-13") == nil)
        #expect(MonthLabel("2026-11")!.startInstant.iso8601 == "2026-11-01T00:00:00.000Z")
    }
}
