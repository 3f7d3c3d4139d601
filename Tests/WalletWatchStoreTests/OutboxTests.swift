import Foundation
import GRDB
import Testing
import WalletWatchCore
@testable import WalletWatchStore

@Suite("Notifications outbox")
struct OutboxTests {
    static let now = Instant(iso8601: "2026-11-02T10:00:00.000Z")!

    static func event(_ name: NotificationEvent.Name = .goalReached, goal: String = "Trip") -> NotificationEvent {
        NotificationEvent(name, at: now, data: .object(["goal": .string(goal), "funded": 100, "target": 100, "currency": "EUR"]))
    }

    /// (event, target, status, data) of every delivery, in the outbox's order.
    static func deliveries(_ database: AppDatabase) throws -> [[String]] {
        try database.read { db in
            try Row.fetchAll(db, sql: """
                SELECT e.event, d.target, d.status, e.data FROM notify_deliveries d JOIN notify_events e ON e.seq = d.event_seq
                ORDER BY e.seq, d.target
                """).map { [$0[0], $0[1], $0[2], $0[3]] }
        }
    }

    @Test("an event fans out to the targets subscribed to it, and to no other")
    func fanOut() throws {
        let database = try AppDatabase.inMemory()
        try database.setNotifyTargets(["phone": [.goalReached, .transactionNew], "home": Set(NotificationEvent.Name.subscribable)])
        let ids = try database.write { db in
            [try AppDatabase.enqueue(Self.event(), in: db), try AppDatabase.enqueue(Self.event(.sourceFailing), in: db)]
        }
        #expect(ids[0] != nil && ids[1] != nil && ids[0] != ids[1])
        let data = #"{"goal":"Trip","funded":100,"target":100,"currency":"EUR"}"#
        #expect(try Self.deliveries(database) == [
            ["goal.reached", "home", "pending", data], ["goal.reached", "phone", "pending", data],
            ["source.failing", "home", "pending", data],
        ])
    }

    @Test("without a subscribed target nothing is written")
    func nobodyListens() throws {
        let database = try AppDatabase.inMemory()
        #expect(try database.write { db in try AppDatabase.enqueue(Self.event(), in: db) } == nil)
        try database.setNotifyTargets(["phone": [.transactionNew]])
        #expect(try database.write { db in try AppDatabase.enqueue(Self.event(), in: db) } == nil)
        #expect(try database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM notify_events") } == 0)
    }

    @Test("an event rolls back with the write that caused it")
    func rollsBackWithItsCause() throws {
        let database = try AppDatabase.inMemory()
        try database.setNotifyTargets(["phone": [.goalReached]])
        struct CauseFailed: Error {}
        #expect(throws: CauseFailed.self) {
            try database.writer.write { db in
                try AppDatabase.enqueue(Self.event(), in: db)
                throw CauseFailed()
            }
        }
        #expect(try Self.deliveries(database).isEmpty)
    }

    @Test("the stored subscriptions follow the config; enqueued deliveries stay")
    func subscriptionsFollowTheConfig() throws {
        let database = try AppDatabase.inMemory()
        try database.setNotifyTargets(["phone": [.goalReached]])
        try database.write { db in _ = try AppDatabase.enqueue(Self.event(goal: "A"), in: db) }
        try database.setNotifyTargets(["home": [.goalReached]])
        try database.write { db in _ = try AppDatabase.enqueue(Self.event(goal: "B"), in: db) }
        #expect(try Self.deliveries(database).map { [$0[1], $0[3].contains("\"A\"") ? "A" : "B"] } == [["phone", "A"], ["home", "B"]])
    }
}
