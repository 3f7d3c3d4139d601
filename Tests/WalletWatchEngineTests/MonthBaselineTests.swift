import Foundation
import Logging
import PropertyBased
import Testing
import TestSupport
import WalletWatchCore
import WalletWatchEngine
import WalletWatchNet
import WalletWatchStore

/// The month's figures depend on the dates of events, never on when they were recorded
/// (SPEC.md sections 10 and 11: what is dated at or before the start S belongs to the baseline
/// however late it arrives; a transaction dated in [S, N] is the month's).
///
/// Every case runs the real Engine on a real database file: a manual USD wallet dedicated to one
/// goal (`allocate Cash House=100%`), so that Rule 1 carries every deposit and withdrawal to the
/// goal and the goal's funded amount is the wallet's balance. The expected contribution is then
/// the wallet's balance at N minus its balance at S, summed by hand from the events' dates.
@Suite("The month's baseline: recording order does not matter, only dates")
struct MonthBaselineTests {
    static let start = Instant.at("2026-11-01T00:00:00Z")
    static let observed = Instant.at("2026-11-20T00:00:00Z")

    /// One dated deposit (positive) or withdrawal (negative), in cents.
    struct Event: Hashable, Sendable, CustomStringConvertible {
        let cents: Int64
        let date: Instant
        var description: String { "\(cents)@\(date.iso8601)" }
    }

    /// A fresh world: the wallet holding 300 USD before S, dedicated to the goal.
    ///
    /// Every world starts from the same database, so it is written once (a new file migrated
    /// through every schema version, then the four writes below) and each world gets a copy of
    /// its files: the property test makes two worlds a case, and writing each anew was most of
    /// its time. What the cases then do runs on their own copy, through the real engine.
    final class World: Sendable {
        let folder = TemporaryDirectory("walletwatch-baseline")
        let database: AppDatabase

        /// The set-up database's files (the database, and its WAL if one was left), by suffix.
        static let template: Result<[String: Data], SetupError> = {
            do {
                let folder = TemporaryDirectory("walletwatch-baseline-template")
                let path = folder.file("walletwatch.sqlite")
                // Closed when it goes at the end of this scope, so that its files are whole.
                do { try setUp(try AppDatabase.open(path: path)) }
                var files: [String: Data] = [:]
                for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: path + suffix) {
                    files[suffix] = try Data(contentsOf: URL(fileURLWithPath: path + suffix))
                }
                return .success(files)
            } catch {
                return .failure(SetupError(description: "the baseline world's database could not be set up: \(error)"))
            }
        }()

        struct SetupError: Error, CustomStringConvertible {
            let description: String
        }

        static func setUp(_ database: AppDatabase) throws {
            let setup = Instant.at("2026-10-01T00:00:00Z")
            _ = try database.createManualAsset(name: "Cash", currency: .usd, now: setup)
            _ = try database.createGoal(name: "House", currency: .usd, target: 10_000_00, deadline: Day("2027-12-31"), now: setup)
            _ = try database.allocate(assetName: "Cash", assignments: [("House", "100%")], now: setup)
            _ = try database.addManualTransaction(assetName: "Cash", amount: "300", date: setup, note: nil, now: setup)
        }

        init() throws {
            let path = folder.file("walletwatch.sqlite")
            for (suffix, bytes) in try Self.template.get() {
                guard FileManager.default.createFile(atPath: path + suffix, contents: bytes, attributes: [.posixPermissions: 0o600]) else {
                    throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path + suffix])
                }
            }
            database = try AppDatabase.open(path: path)
        }

        func engine(at now: Instant) -> Engine {
            let logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
            let http = CurlHTTPClient(configuration: HTTPClientConfiguration(userAgent: "walletwatch-test"), logger: logger)
            var config = AppConfig(file: nil, database: folder.file("walletwatch.sqlite"), sources: [])
            config.rates = RatesConfig(provider: .static, currencies: [.usd])
            return Engine(storage: Storage(database), config: config, clock: .fixed(now), http: http, logger: logger)
        }

        func record(_ event: Event, at now: Instant) throws {
            let amount = Money(minorUnits: Int128(event.cents), currency: .usd).majorString
            _ = try database.addManualTransaction(assetName: "Cash", amount: amount, date: event.date, note: nil, now: now)
        }

        func startMonth() async throws {
            _ = try await engine(at: MonthBaselineTests.start).month.start()
        }

        /// The goal's contribution as `month status` shows it at N.
        func contributed() async throws -> Int128 {
            let status = try await engine(at: MonthBaselineTests.observed).month.status(refreshRates: .never)
            return try #require(status.goals.first { $0.name == "House" }).figures.contributed
        }
    }

    /// Records `events` in date order, each when it happens (those dated at or before S before the
    /// month starts), starts the month at S, and returns the contribution at N.
    static func recordedOnTime(_ events: [Event]) async throws -> Int128 {
        let world = try World()
        let sorted = events.sorted { $0.date < $1.date }
        for event in sorted where event.date <= start { try world.record(event, at: event.date) }
        try await world.startMonth()
        for event in sorted where event.date > start { try world.record(event, at: event.date) }
        return try await world.contributed()
    }

    /// Starts the month at S with nothing recorded, then records every event after S in `order`
    /// (deposits before withdrawals, so that no withdrawal is refused for a deposit not yet
    /// recorded), and returns the contribution at N.
    static func recordedLate(_ events: [Event], order: [Int]) async throws -> Int128 {
        let world = try World()
        try await world.startMonth()
        let late = observed.adding(seconds: -3600)
        let ordered = order.map { events[$0] }
        for event in ordered.filter({ $0.cents > 0 }) + ordered.filter({ $0.cents < 0 }) { try world.record(event, at: late) }
        return try await world.contributed()
    }

    /// The month's deposits minus withdrawals: what a dedicated wallet gives its goal.
    static func expected(_ events: [Event]) -> Int128 {
        events.filter { $0.date >= start && $0.date <= observed }.reduce(Int128(0)) { $0 + Int128($1.cents) }
    }

    @Test("issue 12: a 500 dated before S recorded after the start, then an in-month 100: contributed 100, not 600")
    func backdatedDeposit() async throws {
        let before = Event(cents: 500_00, date: .at("2026-10-25T00:00:00Z"))
        let inMonth = Event(cents: 100_00, date: .at("2026-11-10T00:00:00Z"))
        // The 500 recorded after the start, then the 100 (as the issue describes it).
        let world = try World()
        try await world.startMonth()
        try world.record(before, at: .at("2026-11-05T00:00:00Z"))
        try world.record(inMonth, at: .at("2026-11-10T00:00:00Z"))
        #expect(try await world.contributed() == 100_00)
        // The 100 first, then the 500: its Rule 1 row has to follow the pair's in-month row.
        #expect(try await Self.recordedLate([before, inMonth], order: [1, 0]) == 100_00)
        #expect(try await Self.recordedOnTime([before, inMonth]) == 100_00)
    }

    @Test("issue 12: a later plain `allocate` does not carry a late baseline deposit into the month")
    func allocateAfterBackdatedDeposit() async throws {
        let world = try World()
        try await world.startMonth()
        try world.record(Event(cents: 500_00, date: .at("2026-10-25T00:00:00Z")), at: .at("2026-11-05T00:00:00Z"))
        // The user lowers the goal's target by 100 (800 -> 700): a reallocation of -100.
        _ = try world.database.allocate(assetName: "Cash", assignments: [("House", "700")], now: .at("2026-11-06T00:00:00Z"))
        #expect(try await world.contributed() == -100_00)
    }

    @Test("issue 12: a deposit dated exactly S and recorded just after the start counts as the month's, like one 1 ms later")
    func depositAtStart() async throws {
        for date in [Self.start, Self.start.adding(milliseconds: 1)] {
            let world = try World()
            try await world.startMonth()
            try world.record(Event(cents: 500_00, date: date), at: Self.start.adding(milliseconds: 5))
            #expect(try await world.contributed() == 500_00, "dated \(date.iso8601)")
        }
        #expect(try await Self.recordedOnTime([Event(cents: 500_00, date: Self.start)]) == 500_00)
    }

    /// Deposits and withdrawals dated around S (before, 1 ms before, exactly at, 1 ms after, in
    /// the month): one event per kind, with its amount in whole USD. Every third event (by date)
    /// is a withdrawal kept within the balance at its date, so every order of recording is
    /// accepted by the ledger's rules.
    static func events(kinds: [Int], amounts: [Int]) -> [Event] {
        let dates = [Instant.at("2026-10-20T00:00:00Z"), start.adding(milliseconds: -1), start,
                     start.adding(milliseconds: 1), Instant.at("2026-11-07T00:00:00Z"), Instant.at("2026-11-15T12:00:00Z")]
        var events = zip(kinds, amounts).map { Event(cents: Int64($0.1) * 100, date: dates[$0.0]) }
        var balance: Int64 = 300_00
        for (position, index) in events.indices.sorted(by: { (events[$0].date, $0) < (events[$1].date, $1) }).enumerated() {
            if position % 3 == 2 { events[index] = Event(cents: -min(events[index].cents, balance), date: events[index].date) }
            balance += events[index].cents
        }
        return events.filter { $0.cents != 0 }
    }

    @Test("property: recorded on time or after the start, in any order, the month's figure is the same")
    func recordingOrderDoesNotMatter() async throws {
        await propertyCheck(count: 40, input: Gen.int(in: 0...5).array(of: 1...7), Gen.int(in: 1...900).array(of: 7), Gen.int(in: 0...1_000)) {
            kinds, amounts, seed in
            let events = Self.events(kinds: kinds, amounts: amounts)
            var order = Array(events.indices)
            var generator = SeededGenerator(seed: UInt64(seed))
            order.shuffle(using: &generator)
            let expected = Self.expected(events)
            let onTime = try await Self.recordedOnTime(events)
            let late = try await Self.recordedLate(events, order: order)
            #expect(onTime == expected, "recorded on time: \(events)")
            #expect(late == expected, "recorded after the start in order \(order): \(events)")
        }
    }
}

/// A small deterministic generator (SplitMix64), so a failing case's order can be replayed.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
