import Foundation
import WalletWatchCore

/// Where "now" comes from: the system clock, or the instant in `WALLETWATCH_NOW` when set, so
/// that tests and back-fills see one fixed time everywhere. Intervals and timeouts measure
/// elapsed time with the monotonic clock instead; this one only stamps and compares data.
public struct WallClock: Sendable {
    private let read: @Sendable () -> Instant

    public init(_ read: @escaping @Sendable () -> Instant) { self.read = read }

    /// The current instant.
    public var now: Instant { read() }

    /// Always the same instant.
    public static func fixed(_ instant: Instant) -> WallClock { WallClock { instant } }

    /// The system clock.
    public static let system = WallClock {
        Instant(millisecondsSinceEpoch: Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)))
    }

    /// The environment variable that fixes the clock.
    public static let environmentKey = "WALLETWATCH_NOW"

    /// `WALLETWATCH_NOW` when set (refusing a malformed value), else the system clock.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) throws -> WallClock {
        guard let text = environment[environmentKey], !text.isEmpty else { return .system }
        guard let instant = Instant(iso8601: text) else {
            throw UsageError("\(environmentKey)='\(text)' is not an ISO 8601 instant; write it like 2026-11-21T09:30:00Z")
        }
        return .fixed(instant)
    }
}
