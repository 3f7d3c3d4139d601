import Foundation
import Testing
import TestSupport
import WalletWatchCore

/// CryptoSavingsTracker's monthly-cycle fixtures (the state resolver its iOS and Android apps
/// both replay), mapped onto walletwatch's month cycle (SPEC section 11) and run through the
/// built binary with a real database, the clock fixed with `WALLETWATCH_NOW`.
///
/// How the fixture's fields map onto walletwatch:
/// - `records[]` -> rows of `execution_records` (month_label, status, started_at, completed_at,
///   can_undo_until). Each test first builds them with walletwatch's own commands (`month
///   start`, `complete`, `undo-start` at the fixture's instants, `settings set undo_grace_hours`
///   to the window the record carries) and checks that the stored rows equal the fixture's.
///   Rows walletwatch's rules cannot produce (a second executing record, a label that is no
///   month, a 30-minute window) are written with sqlite3, as something outside would.
/// - `nowUtc` -> `WALLETWATCH_NOW` of the commands whose answer is checked.
/// - `currentStorageMonthLabelUtc` -> the UTC month of `nowUtc`, which `month status` shows
///   when no month is executing.
/// - `displayTimeZone` -> the `time_zone` setting. walletwatch labels months in UTC always
///   (SPEC section 2); the zone only changes how times are printed. The fixture agrees: its
///   labels are UTC too (fixtures 09 and 10).
/// - `undoWindowSeconds` -> `undo_grace_hours`. CryptoSavingsTracker falls back to it only
///   for a record without `canUndoUntil`; walletwatch always stores `can_undo_until` at the
///   step, and that stored instant decides, as the fixture's record does. At the instant itself
///   the two differ: CryptoSavingsTracker allows undo while `now < canUndoUntil`, walletwatch
///   while `now <= can_undo_until` (SPEC section 11: "undo allowed until now + grace"); no
///   fixture sits on that instant.
/// - `expected.state`: `planning` -> `draft`; `executing` -> `executing`; `closed` -> the
///   closed month (`month status --month M`) with `month undo-complete` allowed; `conflict` ->
///   no walletwatch state: walletwatch refuses (see each test).
/// - `canFinish` -> `month complete` succeeds at `nowUtc`; `canUndoStart` -> `month
///   undo-start` succeeds; `canUndoCompletion` -> `month undo-complete` succeeds. Each is tried
///   on a copy of the database, so that one answer does not change the next.
/// - `planning.source`: walletwatch has no such field. `currentMonth` -> no closed month in
///   `month history`; `nextMonthAfterClosed` -> the month before is in `month history` and its
///   undo window has passed.
@Suite("CLI: CryptoSavingsTracker's monthly-cycle fixtures")
struct MonthCycleFixtureCLITests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/cst-monthly-cycle")

    // MARK: - The fixture

    struct Fixture: Decodable {
        struct Record: Decodable {
            let monthLabel: String
            let status: String
            let startedAt: String?
            let completedAt: String?
            let canUndoUntil: String?
        }

        struct Expected: Decodable {
            struct Planning: Decodable { let month: String; let source: String }
            struct Executing: Decodable { let month: String; let canFinish: Bool; let canUndoStart: Bool }
            struct Closed: Decodable { let month: String; let canUndoCompletion: Bool }
            struct Conflict: Decodable { let month: String?; let reason: String }
            let state: String
            let planning: Planning?
            let executing: Executing?
            let closed: Closed?
            let conflict: Conflict?
        }

        let displayTimeZone: String
        let nowUtc: String
        let currentStorageMonthLabelUtc: String
        let undoWindowSeconds: Int
        let records: [Record]
        let expected: Expected

        init(_ name: String) throws {
            self = try JSONDecoder().decode(Fixture.self, from: Data(contentsOf: MonthCycleFixtureCLITests.fixtures.appendingPathComponent(name)))
            // The fixture's own consistency: its storage label is the UTC month of its now.
            #expect(currentStorageMonthLabelUtc == String(nowUtc.prefix(7)))
        }

        var now: Instant { .at(nowUtc) }
    }

    // MARK: - A walletwatch folder with a static rate and no sources

    final class Cycle: @unchecked Sendable {
        let folder = TemporaryDirectory("walletwatch-cycle")
        var database: String { folder.file("walletwatch.sqlite") }

        init(zone: String) async throws {
            folder.write("walletwatch.toml", """
                [rates]
                provider = "static"
                currencies = ["USD"]
                [rates.static]
                "BTC/USD" = "65000"
                """)
            try await succeed("2026-01-01T00:00:00Z", "settings", "set", "time_zone", zone)
        }

        func run(_ now: Instant, _ arguments: String...) async throws -> CommandResult {
            try await run(now, arguments)
        }

        func run(_ now: Instant, _ arguments: [String]) async throws -> CommandResult {
            try await CLIRunner(folder: folder, now: now.iso8601).run(arguments)
        }

        @discardableResult
        func succeed(_ now: String, _ arguments: String...) async throws -> CommandResult {
            let result = try await run(.at(now), arguments)
            #expect(result.status == 0, "\(arguments) at \(now): \(result.stderr)")
            return result
        }

        func grace(hours: Int64, at now: String) async throws {
            try await succeed(now, "settings", "set", "undo_grace_hours", "\(hours)")
        }

        /// Runs a command at `now` on a copy of the database: whether it is allowed, without
        /// changing what the next check sees.
        func onCopy(_ now: Instant, _ arguments: String...) async throws -> (CommandResult, Cycle.Copy) {
            let copy = Copy()
            for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: database + suffix) {
                try FileManager.default.copyItem(atPath: database + suffix, toPath: copy.database + suffix)
            }
            return (try await run(now, arguments + ["--db", copy.database]), copy)
        }

        final class Copy: @unchecked Sendable {
            let folder = TemporaryDirectory("walletwatch-cycle-copy")
            var database: String { folder.file("copy.sqlite") }
        }

        /// sqlite3 on the database, as an outside program would write to it.
        func sql(_ statement: String, database: String? = nil) async throws -> CommandResult {
            try await ProcessRunner.run("/usr/bin/sqlite3", [database ?? self.database, statement], environment: [:], currentDirectory: "/")
        }

        /// The stored month records, each as `label|status|started|completed|can_undo_until`
        /// with instants normalised (walletwatch stores milliseconds).
        func records(database: String? = nil) async throws -> [String] {
            let result = try await sql("SELECT month_label, status, started_at, completed_at, can_undo_until FROM execution_records ORDER BY id",
                                       database: database)
            #expect(result.status == 0, "\(result.stderr)")
            return result.stdout.split(separator: "\n").map { line in
                let fields = line.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
                return ([fields[0], fields[1]] + fields[2...].map { $0.isEmpty ? "null" : Instant.at($0).iso8601 }).joined(separator: "|")
            }
        }

        /// The `month status --json` document at `now`.
        func status(_ now: Instant, month: String? = nil) async throws -> [String: Any] {
            let result = try await run(now, ["month", "status", "--json"] + (month.map { ["--month", $0] } ?? []))
            #expect(result.status == 0, "\(result.stderr)")
            return try #require(result.object)
        }
    }

    static func key(_ record: Fixture.Record) -> String {
        ([record.monthLabel, record.status] + [record.startedAt, record.completedAt, record.canUndoUntil].map { $0.map { Instant.at($0).iso8601 } ?? "null" })
            .joined(separator: "|")
    }

    /// The stored rows are the fixture's, in any order.
    static func expectRecords(_ cycle: Cycle, _ fixture: Fixture, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        #expect(try await cycle.records().sorted() == fixture.records.map(key).sorted(), sourceLocation: sourceLocation)
    }

    /// The window a record carries, in whole hours (walletwatch's setting is whole hours).
    static func hours(from start: String, to end: String) -> Int64 {
        let seconds = Instant.at(end).seconds(since: .at(start))
        #expect(seconds % 3600 == 0, "a \(seconds)-second window is not whole hours")
        return seconds / 3600
    }

    // MARK: - The fixtures

    /// executing 2026-03 started Mar 1 08:00, can_undo_until Mar 3 08:00 (a 48-hour window:
    /// `undo_grace_hours` 48); at Mar 2 08:00 completing and undoing the start are both allowed.
    @Test("01 start -> executing: complete and undo-start allowed")
    func startToExecuting() async throws {
        let fixture = try Fixture("01_start_to_executing.json")
        let record = fixture.records[0]
        let expected = try #require(fixture.expected.executing)
        let cycle = try await Cycle(zone: fixture.displayTimeZone)
        try await cycle.grace(hours: Self.hours(from: record.startedAt!, to: record.canUndoUntil!), at: record.startedAt!)
        try await cycle.succeed(record.startedAt!, "month", "start")
        try await Self.expectRecords(cycle, fixture)

        let status = try await cycle.status(fixture.now)
        #expect(fixture.expected.state == "executing" && status["state"] as? String == "executing")
        #expect(status["month"] as? String == expected.month)
        #expect(status["started_at"] as? String == Instant.at(record.startedAt!).iso8601)
        #expect(try await cycle.onCopy(fixture.now, "month", "complete").0.status == (expected.canFinish ? 0 : 65))
        #expect(try await cycle.onCopy(fixture.now, "month", "undo-start").0.status == (expected.canUndoStart ? 0 : 65))
        // The stored instant is the window: one second after it, undo-start is refused.
        let late = try await cycle.run(Instant.at(record.canUndoUntil!).adding(seconds: 1), "month", "undo-start")
        #expect(late.status == 65 && late.stderr.contains("possible until"), "\(late.stderr)")
    }

    /// Started, then undone within the window: a draft 2026-03 with no instants; at Mar 2 08:00
    /// the current month is planned, and starting it is what can be done.
    @Test("02 undo start -> planning the same month: draft, start allowed, nothing to complete or undo")
    func undoStartToPlanning() async throws {
        let fixture = try Fixture("02_undo_start_to_planning_same_month.json")
        let expected = try #require(fixture.expected.planning)
        let cycle = try await Cycle(zone: fixture.displayTimeZone)
        try await cycle.grace(hours: Int64(fixture.undoWindowSeconds / 3600), at: "2026-03-02T06:00:00Z")
        try await cycle.succeed("2026-03-02T07:00:00Z", "month", "start")
        try await cycle.succeed("2026-03-02T07:30:00Z", "month", "undo-start")
        try await Self.expectRecords(cycle, fixture)

        let status = try await cycle.status(fixture.now)
        #expect(fixture.expected.state == "planning" && status["state"] as? String == "draft")
        #expect(status["month"] as? String == expected.month)
        #expect(expected.month == fixture.currentStorageMonthLabelUtc)
        let (start, copy) = try await cycle.onCopy(fixture.now, "month", "start")
        #expect(start.status == 0, "\(start.stderr)")
        #expect(try await cycle.records(database: copy.database).map { String($0.prefix(17)) } == ["\(expected.month)|executing"])
        #expect(try await cycle.run(fixture.now, "month", "complete").status == 65)
        #expect(try await cycle.run(fixture.now, "month", "undo-start").status == 65)
        // source currentMonth: no month was closed before.
        #expect(expected.source == "currentMonth")
        #expect((try await cycle.run(fixture.now, "month", "history", "--json").json as? [Any])?.isEmpty == true)
    }

    /// 2026-02 closed Mar 1 07:00 with a 30-minute window (until 07:30): walletwatch's window
    /// is whole hours, so the month is completed with 1 hour and the stored instant is then set
    /// to the fixture's 07:30 with sqlite3. At Mar 2 08:00 the window has passed: March is
    /// planned, February is history.
    @Test("03 finish -> planning the next month: draft 2026-03, February closed for good")
    func finishToPlanningNextMonth() async throws {
        let fixture = try Fixture("03_finish_to_planning_next_month.json")
        let record = fixture.records[0]
        let expected = try #require(fixture.expected.planning)
        let cycle = try await Cycle(zone: fixture.displayTimeZone)
        try await cycle.grace(hours: 1, at: record.startedAt!)
        try await cycle.succeed(record.startedAt!, "month", "start")
        try await cycle.succeed(record.completedAt!, "month", "complete")
        let aligned = try await cycle.sql("UPDATE execution_records SET can_undo_until = '\(Instant.at(record.canUndoUntil!).iso8601)'")
        #expect(aligned.status == 0, "\(aligned.stderr)")
        try await Self.expectRecords(cycle, fixture)

        let status = try await cycle.status(fixture.now)
        #expect(fixture.expected.state == "planning" && status["state"] as? String == "draft")
        #expect(status["month"] as? String == expected.month)
        let undo = try await cycle.run(fixture.now, "month", "undo-complete")
        #expect(undo.status == 65 && undo.stderr.contains("possible until \(Instant.at(record.canUndoUntil!).iso8601)"), "\(undo.stderr)")
        #expect(try await cycle.onCopy(fixture.now, "month", "start").0.status == 0)
        // source nextMonthAfterClosed: the month before is closed, in the history.
        #expect(expected.source == "nextMonthAfterClosed")
        let history = try #require(try await cycle.run(fixture.now, "month", "history", "--json").objects)
        #expect(history.map { $0["month"] as? String } == [record.monthLabel])
        #expect(MonthLabel(record.monthLabel)?.next.description == expected.month)
    }

    /// 2026-02 closed Mar 1 07:00, undo possible until Mar 2 09:00 (26 hours). At Mar 2 08:00
    /// undo-complete is allowed and reopens February.
    ///
    /// Where walletwatch differs: CryptoSavingsTracker's screen shows the closed February while
    /// its undo window is open; walletwatch's `month status` shows the executing month, else
    /// the current UTC month (CLI.md: the month being tracked), so it says 2026-03 draft. The
    /// closed February is `month status --month 2026-02`, and `month complete` said until when
    /// the undo is possible. Both are what SPEC section 11 asks; nothing to change.
    @Test("04 closed with an open undo window: undo-complete allowed; February reads closed")
    func closedWithActiveUndoWindow() async throws {
        let fixture = try Fixture("04_closed_with_active_undo_window.json")
        let record = fixture.records[0]
        let expected = try #require(fixture.expected.closed)
        let cycle = try await Cycle(zone: fixture.displayTimeZone)
        try await cycle.succeed(record.startedAt!, "month", "start")
        try await cycle.grace(hours: Self.hours(from: record.completedAt!, to: record.canUndoUntil!), at: record.completedAt!)
        try await cycle.succeed(record.completedAt!, "month", "complete")
        try await Self.expectRecords(cycle, fixture)

        #expect(fixture.expected.state == "closed")
        let closed = try await cycle.status(fixture.now, month: expected.month)
        #expect(closed["state"] as? String == "closed" && closed["month"] as? String == expected.month)
        let (undo, copy) = try await cycle.onCopy(fixture.now, "month", "undo-complete")
        #expect(undo.status == (expected.canUndoCompletion ? 0 : 65), "\(undo.stderr)")
        #expect(try await cycle.records(database: copy.database).map { String($0.prefix(17)) } == ["\(expected.month)|executing"])
        // The difference above: the default status is the current UTC month.
        let current = try await cycle.status(fixture.now)
        #expect(current["month"] as? String == fixture.currentStorageMonthLabelUtc && current["state"] as? String == "draft")
    }

    /// Two executing records of 2026-03: walletwatch's database refuses the second (one record
    /// a month, and a unique index on the executing status), so the conflict cannot arise;
    /// what stays is the first record, executing, as in fixture 01.
    @Test("05 duplicate executing records: the database refuses the second insert; the first stays executing")
    func duplicateActiveRecords() async throws {
        let fixture = try Fixture("05_conflict_duplicate_active_records.json")
        let conflict = try #require(fixture.expected.conflict)
        #expect(conflict.reason == "duplicateActiveRecords")
        let (first, second) = (fixture.records[0], fixture.records[1])
        #expect(first.status == "executing" && second.status == "executing" && first.monthLabel == conflict.month && second.monthLabel == conflict.month)
        let cycle = try await Cycle(zone: fixture.displayTimeZone)
        try await cycle.grace(hours: Self.hours(from: first.startedAt!, to: first.canUndoUntil!), at: first.startedAt!)
        try await cycle.succeed(first.startedAt!, "month", "start")

        func insert(_ record: Fixture.Record) async throws -> CommandResult {
            try await cycle.sql("""
                INSERT INTO execution_records (month_label, status, started_at, completed_at, can_undo_until, goal_ids)
                VALUES ('\(record.monthLabel)', '\(record.status)', '\(Instant.at(record.startedAt!).iso8601)', NULL, '\(Instant.at(record.canUndoUntil!).iso8601)', '[]')
                """)
        }
        let refused = try await insert(second)
        #expect(refused.status != 0 && refused.stderr.contains("UNIQUE constraint failed: execution_records."), "\(refused.stderr)")
        // Also for another month: at most one executing record at all (the partial index).
        let other = try await insert(Fixture.Record(monthLabel: "2026-02", status: "executing", startedAt: "2026-02-01T08:00:00Z",
                                                    completedAt: nil, canUndoUntil: "2026-02-02T08:00:00Z"))
        #expect(other.status != 0 && other.stderr.contains("UNIQUE constraint failed: execution_records.status"), "\(other.stderr)")
        #expect(try await cycle.records() == [Self.key(first)])
        // walletwatch's own start is refused too.
        let again = try await cycle.run(.at(second.startedAt!), "month", "start")
        #expect(again.status == 65 && again.stderr.contains("already executing"), "\(again.stderr)")

        let status = try await cycle.status(fixture.now)
        #expect(status["state"] as? String == "executing" && status["month"] as? String == conflict.month)
        #expect(status["started_at"] as? String == Instant.at(first.startedAt!).iso8601)
        #expect(try await cycle.onCopy(fixture.now, "month", "complete").0.status == 0)
        #expect(try await cycle.onCopy(fixture.now, "month", "undo-start").0.status == 0)
    }

    /// Every month command, which must refuse when a record cannot be placed.
    static let monthCommands: [[String]] = [
        ["month", "status"], ["month", "status", "--json"], ["month", "start"], ["month", "complete"], ["month", "undo-start"],
        ["month", "undo-complete"], ["month", "plan"], ["month", "history", "--json"],
    ]

    /// Each month command at `now` fails with exit 1 and one error line naming the label, and
    /// changes nothing.
    static func expectRefused(_ cycle: Cycle, _ fixture: Fixture, label: String) async throws {
        for arguments in monthCommands {
            let result = try await cycle.run(fixture.now, arguments)
            #expect(result.status == 1, "\(arguments): \(result.status) \(result.stderr)")
            #expect(result.stdout.isEmpty, "\(arguments): \(result.stdout)")
            let lines = result.stderr.split(separator: "\n")
            #expect(lines.count == 1 && lines[0].hasPrefix("error: ") && lines[0].contains("labelled '\(label)', which is not a yyyy-MM month"),
                    "\(arguments): \(result.stderr)")
        }
        try await expectRecords(cycle, fixture)
    }

    /// An executing record labelled 2026-13, written with sqlite3 (walletwatch only writes
    /// labels of real months). walletwatch cannot tell which month it tracks: every month
    /// command refuses with one line naming the row's label (exit 1: the database, not the
    /// user's input), as the fixture's conflict does, and nothing is written.
    @Test("06 an invalid month label: every month command refuses, naming it; nothing changes")
    func invalidMonthLabel() async throws {
        let fixture = try Fixture("06_conflict_invalid_month_label.json")
        let conflict = try #require(fixture.expected.conflict)
        #expect(conflict.reason == "invalidMonthLabel" && conflict.month == nil)
        let record = fixture.records[0]
        let cycle = try await Cycle(zone: fixture.displayTimeZone)
        let written = try await cycle.sql("""
            INSERT INTO execution_records (month_label, status, started_at, completed_at, can_undo_until, goal_ids)
            VALUES ('\(record.monthLabel)', '\(record.status)', '\(Instant.at(record.startedAt!).iso8601)', NULL, '\(Instant.at(record.canUndoUntil!).iso8601)', '[]')
            """)
        #expect(written.status == 0, "\(written.stderr)")
        try await Self.expectRecords(cycle, fixture)
        try await Self.expectRefused(cycle, fixture, label: record.monthLabel)
    }

    /// A draft record of next month (made while the clock read April, then undone). At Mar 2
    /// the current month is planned and can start; the April record is left as it is.
    @Test("07 a draft record of next month: March is planned and can start")
    func futureBoundaryPlusOne() async throws {
        let fixture = try Fixture("07_future_boundary_plus1_valid.json")
        let expected = try #require(fixture.expected.planning)
        let cycle = try await Self.futureDraft(fixture)
        let status = try await cycle.status(fixture.now)
        #expect(fixture.expected.state == "planning" && status["state"] as? String == "draft" && status["month"] as? String == expected.month)
        #expect(expected.source == "currentMonth")
        let (start, copy) = try await cycle.onCopy(fixture.now, "month", "start")
        #expect(start.status == 0, "\(start.stderr)")
        #expect(try await cycle.records(database: copy.database).map { String($0.prefix(17)) }.sorted()
                == ["\(fixture.records[0].monthLabel)|draft|null", "\(expected.month)|executing"].map { String($0.prefix(17)) }.sorted())
    }

    /// The fixture's draft record: `month start` on the first of its month, undone a minute later.
    static func futureDraft(_ fixture: Fixture) async throws -> Cycle {
        let record = fixture.records[0]
        #expect(record.status == "draft" && record.startedAt == nil)
        let cycle = try await Cycle(zone: fixture.displayTimeZone)
        try await cycle.succeed("\(record.monthLabel)-01T00:00:00Z", "month", "start")
        try await cycle.succeed("\(record.monthLabel)-01T00:01:00Z", "month", "undo-start")
        try await expectRecords(cycle, fixture)
        return cycle
    }

    /// A draft record two months ahead. CryptoSavingsTracker calls it a conflict (a record from
    /// the future). walletwatch does not, by design: `WALLETWATCH_NOW` exists for back-fills
    /// (SPEC section 2), which legitimately act on months before ones already recorded, and a
    /// draft record holds nothing (plans live in monthly_plans, which `month plan --month` may
    /// fill ahead). So March is planned and can start, as for +1.
    @Test("08 a draft record two months ahead: walletwatch plans March (no conflict, on purpose)")
    func futureBoundaryPlusTwo() async throws {
        let fixture = try Fixture("08_future_boundary_plus2_conflict.json")
        let conflict = try #require(fixture.expected.conflict)
        #expect(conflict.reason == "futureRecord" && conflict.month == fixture.records[0].monthLabel)
        let cycle = try await Self.futureDraft(fixture)
        let status = try await cycle.status(fixture.now)
        #expect(status["state"] as? String == "draft" && status["month"] as? String == fixture.currentStorageMonthLabelUtc)
        #expect(try await cycle.onCopy(fixture.now, "month", "start").0.status == 0)
    }

    /// What the future-record conflict guards against where it matters to walletwatch: a month
    /// that started after now (the clock ran ahead, or a back-fill) cannot be completed now, or
    /// it would be frozen as completed before it began.
    @Test("08 variant: a month executing since after now cannot be completed now; nothing changes")
    func futureExecutingCannotComplete() async throws {
        let fixture = try Fixture("08_future_boundary_plus2_conflict.json")
        let month = fixture.records[0].monthLabel
        let cycle = try await Cycle(zone: fixture.displayTimeZone)
        try await cycle.succeed("\(month)-01T00:00:00Z", "month", "start")
        let before = try await cycle.records()
        let status = try await cycle.status(fixture.now)
        #expect(status["state"] as? String == "executing" && status["month"] as? String == month)
        let complete = try await cycle.run(fixture.now, "month", "complete")
        #expect(complete.status == 65, "\(complete.stderr)")
        #expect(complete.stderr.contains("started at \(month)-01T00:00:00.000Z, after now (\(fixture.now.iso8601))"), "\(complete.stderr)")
        #expect(try await cycle.records() == before)
        #expect(try await cycle.run(fixture.now, "month", "history", "--json").objects?.isEmpty == true)
    }

    /// At 00:30 UTC on Mar 1 it is still Feb 28 at UTC-12 and already the afternoon of Mar 1 at
    /// UTC+14: the label is March either way, and only the printed time follows the zone.
    @Test("09 and 10: at UTC-12 and UTC+14 the month is the UTC one; the zone moves only the printed time",
          arguments: ["09_timezone_edge_utc_minus_12.json", "10_timezone_edge_utc_plus_14.json"])
    func timeZoneEdges(file: String) async throws {
        let fixture = try Fixture(file)
        let expected = try #require(fixture.expected.planning)
        #expect(fixture.records.isEmpty && expected.source == "currentMonth")
        let cycle = try await Cycle(zone: fixture.displayTimeZone)
        let status = try await cycle.status(fixture.now)
        #expect(status["state"] as? String == "draft" && status["month"] as? String == expected.month)
        #expect(expected.month == fixture.currentStorageMonthLabelUtc)

        let start = try await cycle.run(fixture.now, "month", "start")
        #expect(start.status == 0, "\(start.stderr)")
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        let zone: TimeZone = try #require(TimeZone(identifier: fixture.displayTimeZone))
        formatter.timeZone = zone
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        let local = formatter.string(from: try #require(ISO8601DateFormatter().date(from: fixture.nowUtc)))
        #expect(start.stdout.hasPrefix("started \(expected.month) at \(local);"), "\(start.stdout)")
        #expect(local.prefix(7) != expected.month || fixture.displayTimeZone == "Pacific/Kiritimati", "UTC-12 is still in February")
        #expect(try await cycle.records() == ["\(expected.month)|executing|\(fixture.now.iso8601)|null|\(fixture.now.adding(seconds: 86_400).iso8601)"])
    }

    /// A draft labelled "bad" beside a valid executing 2026-03. CryptoSavingsTracker lets the
    /// invalid label win over everything else; walletwatch agrees: a label that is no month
    /// could be any month, including the executing one, so the cycle stops and names it
    /// rather than carry on as if the row were not there.
    @Test("11 an invalid label beside a valid executing month: every month command refuses, naming it")
    func invalidLabelTakesPrecedence() async throws {
        let fixture = try Fixture("11_conflict_precedence_invalid_label_over_others.json")
        let conflict = try #require(fixture.expected.conflict)
        #expect(conflict.reason == "invalidMonthLabel" && conflict.month == nil)
        let bad = try #require(fixture.records.first { MonthLabel($0.monthLabel) == nil })
        let valid = try #require(fixture.records.first { $0.status == "executing" })
        let cycle = try await Cycle(zone: fixture.displayTimeZone)
        try await cycle.grace(hours: Self.hours(from: valid.startedAt!, to: valid.canUndoUntil!), at: valid.startedAt!)
        try await cycle.succeed(valid.startedAt!, "month", "start")
        let written = try await cycle.sql("""
            INSERT INTO execution_records (month_label, status, started_at, completed_at, can_undo_until, goal_ids)
            VALUES ('\(bad.monthLabel)', '\(bad.status)', NULL, NULL, NULL, '[]')
            """)
        #expect(written.status == 0, "\(written.stderr)")
        try await Self.expectRecords(cycle, fixture)
        try await Self.expectRefused(cycle, fixture, label: bad.monthLabel)
    }
}
