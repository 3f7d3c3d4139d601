import Foundation

/// What one run of a built binary printed and returned.
public struct CommandResult: Sendable {
    public let status: Int32
    public let stdout: String
    public let stderr: String

    /// stdout parsed as JSON (nil when it is not exactly one JSON document).
    public var json: Any? {
        try? JSONSerialization.jsonObject(with: Data(stdout.utf8), options: [.fragmentsAllowed])
    }

    /// stdout as a JSON object.
    public var object: [String: Any]? { json as? [String: Any] }
    /// stdout as a JSON array of objects.
    public var objects: [[String: Any]]? { json as? [[String: Any]] }
}

/// Finds the executables `swift build` made: beside the test bundle, unless
/// `WALLETWATCH_BUILD_DIR` names another folder.
public enum BuildProducts {
    public static var directory: String {
        if let explicit = ProcessInfo.processInfo.environment["WALLETWATCH_BUILD_DIR"] { return explicit }
        let executable = Bundle.main.executablePath ?? CommandLine.arguments[0]
        var folder = (executable as NSString).deletingLastPathComponent
        // On some platforms the test runner sits inside the .xctest bundle.
        while folder.hasSuffix(".xctest") || folder.contains(".xctest/") {
            folder = (folder as NSString).deletingLastPathComponent
        }
        return folder
    }

    public static func path(_ name: String) -> String {
        (directory as NSString).appendingPathComponent(name)
    }
}

/// Runs the built `walletwatch` the way a user would, in its own folder, with its own config
/// and a fixed clock (`WALLETWATCH_NOW`).
public struct CLIRunner: Sendable {
    public let binary: String
    public let folder: String
    public var environment: [String: String]

    /// A runner whose config is `<folder>/walletwatch.toml`, with the clock fixed at `now`.
    public init(folder: TemporaryDirectory, now: String? = "2026-11-21T12:00:00Z") {
        self.binary = BuildProducts.path("walletwatch")
        self.folder = folder.path
        var environment: [String: String] = [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
            "HOME": folder.path,
            "WALLETWATCH_CONFIG": (folder.path as NSString).appendingPathComponent("walletwatch.toml"),
            "LANG": "C.UTF-8",
        ]
        if let now { environment["WALLETWATCH_NOW"] = now }
        self.environment = environment
    }

    /// Runs `walletwatch` with `arguments` and waits (without blocking a thread) for it to finish.
    @discardableResult
    public func run(_ arguments: String..., input: String? = nil) async throws -> CommandResult {
        try await run(arguments, input: input)
    }

    @discardableResult
    public func run(_ arguments: [String], input: String? = nil, extraEnvironment: [String: String] = [:]) async throws -> CommandResult {
        try await ProcessRunner.run(binary, arguments, environment: environment.merging(extraEnvironment) { $1 },
                                    currentDirectory: folder, input: input)
    }
}

/// Runs a program to completion, collecting its output through files (no pipe can fill up).
/// The caller awaits the exit instead of blocking its thread: servers running in the test
/// process (the simulator) need the cooperative threads to answer the program.
public enum ProcessRunner {
    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String], currentDirectory: String,
        input: String? = nil
    ) async throws -> CommandResult {
        let outputs = TemporaryDirectory("walletwatch-output")
        let stdoutPath = outputs.file("stdout")
        let stderrPath = outputs.file("stderr")
        _ = FileManager.default.createFile(atPath: stdoutPath, contents: nil)
        _ = FileManager.default.createFile(atPath: stderrPath, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        process.currentDirectoryURL = URL(fileURLWithPath: currentDirectory)
        let stdout = try FileHandle(forWritingTo: URL(fileURLWithPath: stdoutPath))
        let stderr = try FileHandle(forWritingTo: URL(fileURLWithPath: stderrPath))
        process.standardOutput = stdout
        process.standardError = stderr
        let stdin = Pipe()
        process.standardInput = stdin
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            process.terminationHandler = { _ in continuation.resume() }
            do {
                try process.run()
            } catch {
                process.terminationHandler = nil
                continuation.resume(throwing: error)
                return
            }
            if let input { stdin.fileHandleForWriting.write(Data(input.utf8)) }
            try? stdin.fileHandleForWriting.close()
        }
        try stdout.close()
        try stderr.close()
        return CommandResult(
            status: process.terminationStatus,
            stdout: (try? String(contentsOfFile: stdoutPath, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "")
    }
}
