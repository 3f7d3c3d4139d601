import Foundation

/// What the kernel says about a running process (Linux `/proc`), for tests that watch a daemon
/// for leaks.
public enum ProcessStatistics {
    /// Resident memory in KiB (`VmRSS`), or nil when the process is gone.
    public static func residentKiB(_ pid: Int32) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            return Int(line.dropFirst("VmRSS:".count).trimmingCharacters(in: .whitespaces).split(separator: " ").first ?? "")
        }
        return nil
    }

    /// How many file descriptors the process has open, or nil when it is gone.
    public static func openFiles(_ pid: Int32) -> Int? {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd"))?.count
    }
}

extension CLIRunner {
    /// Runs `walletwatch` under `/usr/bin/time` and returns its result with its peak resident
    /// memory (the kernel's `ru_maxrss`, in KiB).
    public func runMeasuringPeakMemory(_ arguments: [String]) async throws -> (CommandResult, peakKiB: Int) {
        let outputs = TemporaryDirectory("walletwatch-peak")
        let report = outputs.file("maxrss")
        let result = try await ProcessRunner.run("/usr/bin/time", ["-f", "%M", "-o", report, binary] + arguments,
                                                 environment: environment, currentDirectory: folder)
        let text = (try? String(contentsOfFile: report, encoding: .utf8)) ?? ""
        // /usr/bin/time writes "Command exited with non-zero status N" before the figure.
        let figure = text.split(separator: "\n").last.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard let figure else { throw CocoaError(.fileReadCorruptFile, userInfo: [NSFilePathErrorKey: report]) }
        return (result, figure)
    }
}
