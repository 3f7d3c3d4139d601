import Foundation

/// The process that runs an ingest pass, as another process can recognise it: its pid and the
/// kernel's start time of that pid (so that a pid reused by a later process is not taken for
/// the pass's owner).
public struct PassOwner: Sendable, Hashable, CustomStringConvertible {
    public let pid: Int32
    /// Clock ticks after boot at which the process started (field 22 of /proc/PID/stat); 0 where
    /// that is unknown.
    public let started: Int64

    /// This process.
    public static var current: PassOwner {
        let pid = getpid()
        return PassOwner(pid: pid, started: startTime(of: pid) ?? 0)
    }

    /// Nobody: a pass whose owner gave it up.
    static let nobody = PassOwner(pid: 0, started: 0)

    public var description: String { "pid \(pid)" }

    /// True while the process still runs (the same process, not a later one with its pid).
    var isAlive: Bool {
        guard pid > 0 else { return false }
        if let started = Self.startTime(of: pid) { return self.started == 0 || started == self.started }
        // Without /proc (not Linux): whether any process has that pid.
        return FileManager.default.fileExists(atPath: "/proc") ? false : kill(pid, 0) == 0 || errno == EPERM
    }

    /// The start time in /proc/PID/stat: the 22nd field, counted after the command name, which
    /// is in parentheses and may itself hold spaces and parentheses.
    static func startTime(of pid: Int32) -> Int64? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // fields[0] is field 3 (the state), so field 22 is fields[19].
        return fields.count > 19 ? Int64(fields[19]) : nil
    }
}
