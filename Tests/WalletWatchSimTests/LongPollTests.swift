import Foundation
import Testing
@testable import WalletWatchSim

/// barkd's `notifications/wait` long poll.
///
/// Time bounds prove promptness against the alternative (a poll held for 25 s, or forever)
/// with room for a busy machine running the whole suite at once: an answer "at once" must come
/// well inside 12 s, never in exactly some milliseconds.
@Suite struct LongPollTests {
    /// Far inside the 25 s a poll would otherwise be held.
    static let prompt: Duration = .seconds(12)

    @Test func returnsPromptlyWhenAMovementArrivesDuringTheWait() async throws {
        try await Fixture.withSimulator(Scenario(longPollSeconds: 25, wallets: [Fixture.arkWallet()])) { sim in
            let since = sim.now.iso8601
            let url = sim.barkdURL("ark") + "/api/v1/notifications/wait?since=" + since
            let started = ContinuousClock.now
            async let response = HTTPProbe.get(url, token: "t")
            // Add the movement once the poll is certainly parked; the answer must follow at once,
            // far inside the 25 s the poll would otherwise hold.
            try await Task.sleep(for: .milliseconds(300))
            let added = try await sim.addMovement(
                BarkdMovement(subsystem: .arkoorReceive, effectiveBalanceSat: 9_000, time: .completed(at: sim.now)), to: "ark")
            let result = try await response
            let elapsed = ContinuousClock.now - started
            #expect(elapsed < Self.prompt, "answered after \(elapsed)")
            let body = try #require(result.object)
            let notifications = try #require(body["notifications"] as? [[String: Any]])
            #expect(notifications.count == 1)
            #expect(notifications[0]["type"] as? String == "movement-created")
            #expect((notifications[0]["movement"] as? [String: Any])?["id"] as? Int == added.id)
            let last = try #require((body["last_pushed_at"] as? String).flatMap(SimTime.init(iso8601:)))
            #expect(last > SimTime(iso8601: since)!)

            // Polling again from last_pushed_at finds nothing new and waits.
            let again = sim.barkdURL("ark") + "/api/v1/notifications/wait?since=" + last.iso8601
            async let second = HTTPProbe.get(again, token: "t")
            try await Task.sleep(for: .milliseconds(200))
            _ = try await sim.updateMovement(id: added.id, in: "ark", MovementUpdate(status: .failed, effectiveBalanceSat: 0))
            let next = try #require(try await second.object?["notifications"] as? [[String: Any]])
            #expect(next.compactMap { $0["type"] as? String } == ["movement-updated"])
        }
    }

    @Test func answersAtOnceWhenNewerNotificationsExist() async throws {
        try await Fixture.withSimulator(Scenario(longPollSeconds: 25, wallets: [Fixture.arkWallet()])) { sim in
            let before = sim.now.adding(seconds: -1)
            try await sim.addMovement(BarkdMovement(subsystem: .board, effectiveBalanceSat: 1, time: .completed(at: before)), to: "ark")
            try await sim.addMovement(BarkdMovement(subsystem: .board, effectiveBalanceSat: 2, time: .completed(at: before)), to: "ark")
            let started = ContinuousClock.now
            let body = try #require(try await HTTPProbe.get(
                sim.barkdURL("ark") + "/api/v1/notifications/wait?since=" + before.iso8601, token: "t").object)
            #expect(ContinuousClock.now - started < Self.prompt)
            #expect((body["notifications"] as? [Any])?.count == 2, "oldest first, both")
            // Without `since`: everything in the buffer.
            let all = try #require(try await HTTPProbe.get(sim.barkdURL("ark") + "/api/v1/notifications/wait", token: "t").object)
            #expect((all["notifications"] as? [Any])?.count == 2)
        }
    }

    @Test func timesOutWithAnEmptyListAndTheSameSince() async throws {
        try await Fixture.withSimulator(Scenario(longPollSeconds: 0.5, wallets: [Fixture.arkWallet()])) { sim in
            let since = "2026-11-21T12:00:00.123Z"
            let started = ContinuousClock.now
            let response = try await HTTPProbe.get(sim.barkdURL("ark") + "/api/v1/notifications/wait?since=" + since, token: "t")
            let elapsed = ContinuousClock.now - started
            #expect(elapsed >= .milliseconds(450) && elapsed < Self.prompt, "\(elapsed)")
            #expect(response.text == #"{"notifications":[],"last_pushed_at":"2026-11-21T12:00:00.123Z"}"#)
            #expect(try await HTTPProbe.get(sim.barkdURL("ark") + "/api/v1/notifications/wait?since=yesterday", token: "t").status == 400)
        }
    }

    @Test func stopEndsAParkedPollAtOnce() async throws {
        let sim = try await Simulator.start(scenario: Scenario(longPollSeconds: 25, wallets: [Fixture.arkWallet()]))
        let url = sim.barkdURL("ark") + "/api/v1/notifications/wait?since=" + sim.now.iso8601
        async let response = HTTPProbe.get(url, token: "t")
        try await Task.sleep(for: .milliseconds(300))
        let started = ContinuousClock.now
        await sim.stop()
        _ = try? await response
        #expect(ContinuousClock.now - started < Self.prompt)
    }
}
