import Foundation
import Testing

/// Whether the stress suite runs: `WALLETWATCH_STRESS=1`.
enum StressSwitch {
    static var enabled: Bool { ProcessInfo.processInfo.environment["WALLETWATCH_STRESS"] == "1" }
}

/// The fault, crash and load suite's heavy half: a SIGKILL in the middle of a 100,000-movement
/// ingest, a minute of CLI writes against a daemon ingesting every second, 150 ingests with
/// random faults watched for leaks, hostile sources, a backup during a 1,000,000-movement
/// ingest and a 200 MB tag import. Each test takes tens of seconds and
/// loads the machine, so they run only when `WALLETWATCH_STRESS=1`: `scripts/test` runs them
/// after the rest of the suite, on their own, two at a time like the suite (each uses folders,
/// databases and servers of its own; what they assert is memory, files and outcomes, not time).
@Suite("Stress: crashes, load, leaks and hostile sources",
       .enabled(if: StressSwitch.enabled, "set WALLETWATCH_STRESS=1 to run the stress suite (scripts/test does)"))
enum StressTests {}
