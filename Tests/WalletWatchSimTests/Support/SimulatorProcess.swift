import Foundation
@testable import WalletWatchSim

/// The built `walletwatch-sim` running as a child process, for tests that need the real
/// program or a memory measurement free of the test process's own allocations.
final class SimulatorProcess {
    let process = Process()
    let folder: String
    let port: Int
    var stdoutPath: String { folder + "/stdout" }
    var portFile: String { folder + "/port" }

    /// The built executable, beside the test bundle (or in WALLETWATCH_BUILD_DIR).
    static var binary: String {
        if let folder = ProcessInfo.processInfo.environment["WALLETWATCH_BUILD_DIR"] {
            return (folder as NSString).appendingPathComponent("walletwatch-sim")
        }
        var folder = ((Bundle.main.executablePath ?? CommandLine.arguments[0]) as NSString).deletingLastPathComponent
        while folder.contains(".xctest") { folder = (folder as NSString).deletingLastPathComponent }
        return (folder as NSString).appendingPathComponent("walletwatch-sim")
    }

    /// Starts the program on `scenarioPath` (with `arguments` more) and waits (up to 30 s) for
    /// its port file.
    init(scenarioPath: String, arguments: [String] = []) async throws {
        guard FileManager.default.isExecutableFile(atPath: Self.binary) else {
            throw HTTPProbe.Failure(description: "build walletwatch-sim first: \(Self.binary)")
        }
        folder = NSTemporaryDirectory() + "ww-sim-exe-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: folder + "/stdout", contents: nil)
        process.executableURL = URL(fileURLWithPath: Self.binary)
        process.arguments = ["--scenario", scenarioPath, "--port", "0", "--port-file", folder + "/port"] + arguments
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: folder + "/stdout"))
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = ContinuousClock.now + .seconds(30)
        var bound: Int?
        while bound == nil, ContinuousClock.now < deadline, process.isRunning {
            bound = PortFile.read(folder + "/port")
            if bound == nil { try await Task.sleep(for: .milliseconds(50)) }
        }
        guard let bound else {
            process.terminate()
            throw HTTPProbe.Failure(description: "walletwatch-sim wrote no port file within 30 s")
        }
        port = bound
    }

    var baseURL: String { "http://127.0.0.1:\(port)" }

    /// A figure from /proc/PID/status in bytes (`VmRSS`, `VmHWM`).
    func memory(_ field: String) -> Int {
        guard let text = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") }),
              let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "")
        else { return 0 }
        return kilobytes * 1024
    }

    /// Sends SIGTERM and waits up to 10 s for the program to end.
    func stop() async throws {
        process.terminate()
        let deadline = ContinuousClock.now + .seconds(10)
        while process.isRunning, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(50)) }
    }

    deinit {
        if process.isRunning { process.terminate() }
        try? FileManager.default.removeItem(atPath: folder)
    }
}
