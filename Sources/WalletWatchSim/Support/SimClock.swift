import Foundation

/// The simulator's clock: the wall clock, or shifted so that it started at the scenario's
/// `now` (tests that fix walletwatch's clock keep the simulator on the same timeline).
struct SimClock: Sendable {
    private let offsetMilliseconds: Int64

    init(startingAt start: SimTime?) {
        offsetMilliseconds = start.map { $0.milliseconds - SimClock.wallMilliseconds() } ?? 0
    }

    func now() -> SimTime {
        SimTime(milliseconds: SimClock.wallMilliseconds() + offsetMilliseconds)
    }

    private static func wallMilliseconds() -> Int64 {
        Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
    }
}
