import Foundation

/// A long-running program started by a test (a daemon, a server), with its output in files.
/// Waiting for it never blocks a thread.
public final class BackgroundProcess: @unchecked Sendable {
    private let process = Process()
    private let outputs = TemporaryDirectory("walletwatch-background")
    private let termination = ProcessExit()

    public init(_ executable: String, _ arguments: [String], environment: [String: String], currentDirectory: String) throws {
        let stdoutPath = outputs.file("stdout"), stderrPath = outputs.file("stderr")
        _ = FileManager.default.createFile(atPath: stdoutPath, contents: nil)
        _ = FileManager.default.createFile(atPath: stderrPath, contents: nil)
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        process.currentDirectoryURL = URL(fileURLWithPath: currentDirectory)
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: stdoutPath))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: stderrPath))
        process.standardInput = FileHandle.nullDevice
        termination.watch(process)
        try process.run()
    }

    public var pid: Int32 { process.processIdentifier }
    public var isRunning: Bool { termination.status == nil }

    /// What it printed so far.
    public var stdout: String { (try? String(contentsOfFile: outputs.file("stdout"), encoding: .utf8)) ?? "" }
    public var stderr: String { (try? String(contentsOfFile: outputs.file("stderr"), encoding: .utf8)) ?? "" }

    /// Sends a signal.
    public func send(_ signal: Int32) { kill(process.processIdentifier, signal) }

    /// Its exit status, or nil when it is still running after `timeout`.
    public func exitStatus(within timeout: Duration) async -> Int32? {
        await termination.status(within: timeout)
    }

    deinit {
        if termination.status == nil { kill(process.processIdentifier, SIGKILL) }
    }
}

/// Waits for `condition` to hold, checking every 50 ms, for at most `timeout`.
public func eventually(within timeout: Duration = .seconds(30), _ condition: () async throws -> Bool) async rethrows -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if try await condition() { return true }
        try? await Task.sleep(for: .milliseconds(50))
    }
    return try await condition()
}
