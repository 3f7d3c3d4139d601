import Testing
import TestSupport
@testable import WalletWatchEngine

/// The daemon's wake-up: any number of loops may wait on one (the notification targets' loops
/// share one), and shutdown must reach every one of them, also one that starts waiting after it.
@Suite("Daemon: the wake-up of waiting loops")
struct WakeupTests {
    @Test("close wakes every waiter, and every later wait returns at once")
    func closeWakesEveryone() async {
        let wakeup = Wakeup()
        let started = ContinuousClock.now
        let woken = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<5 {
                group.addTask {
                    await wakeup.wait(for: .seconds(600))
                    return 1
                }
            }
            // Every loop waits (none returns before the close).
            #expect(await eventually(within: .seconds(10)) { await wakeup.waiting == 5 })
            await wakeup.close()
            return await group.reduce(0, +)
        }
        #expect(woken == 5)
        #expect(ContinuousClock.now - started < .seconds(60))
        let late = ContinuousClock.now
        await wakeup.wait(for: .seconds(600))
        #expect(ContinuousClock.now - late < .seconds(60), "a wait after close returns at once")
    }

    @Test("fire wakes every waiter; fired with nobody waiting, it is kept for the next wait")
    func fireIsKept() async {
        let wakeup = Wakeup()
        await wakeup.fire()
        let started = ContinuousClock.now
        await wakeup.wait(for: .seconds(600))
        #expect(ContinuousClock.now - started < .seconds(60))
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<3 { group.addTask { await wakeup.wait(for: .seconds(600)) } }
            #expect(await eventually(within: .seconds(10)) { await wakeup.waiting == 3 })
            await wakeup.fire()
        }
        #expect(await wakeup.waiting == 0)
    }

    @Test("a wait ends after its duration, or when its task is cancelled")
    func timerAndCancellation() async {
        let wakeup = Wakeup()
        let started = ContinuousClock.now
        await wakeup.wait(for: .milliseconds(50))
        #expect(ContinuousClock.now - started >= .milliseconds(50))
        let waiter = Task { await wakeup.wait(for: .seconds(600)) }
        #expect(await eventually(within: .seconds(10)) { await wakeup.waiting == 1 })
        waiter.cancel()
        await waiter.value
        #expect(await wakeup.waiting == 0)
    }
}
