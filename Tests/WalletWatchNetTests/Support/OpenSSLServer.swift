import Foundation
import TestSupport

/// `openssl s_server` with a throwaway self-signed certificate for 127.0.0.1, on a free port:
/// a TLS server that no client should trust.
final class OpenSSLServer: @unchecked Sendable {
    let port: Int
    private let process: Process
    private let folder: TemporaryDirectory

    enum Failure: Error { case certificate(String), didNotStart(String) }

    init() async throws {
        folder = TemporaryDirectory("walletwatch-tls")
        let key = folder.file("key.pem"), certificate = folder.file("cert.pem"), output = folder.file("server.out")
        let generate = Process()
        generate.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        generate.arguments = ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", key, "-out", certificate,
                              "-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"]
        generate.standardOutput = FileHandle.nullDevice
        generate.standardError = FileHandle.nullDevice
        try generate.run()
        // Polled rather than waitUntilExit, which would block a Swift concurrency thread.
        let generated = await eventually(within: .seconds(30)) { !generate.isRunning }
        guard generated, generate.terminationStatus == 0 else {
            throw Failure.certificate("openssl req failed")
        }

        _ = FileManager.default.createFile(atPath: output, contents: nil)
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        // Port 0: the system picks a free one and s_server prints it ("ACCEPT 127.0.0.1:PORT").
        process.arguments = ["s_server", "-accept", "127.0.0.1:0", "-cert", certificate, "-key", key, "-www"]
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()

        let deadline = ContinuousClock.now + .seconds(10)
        while true {
            let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
            if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("ACCEPT ") }),
               let port = line.split(separator: ":").last.flatMap({ Int($0) }) {
                self.port = port
                break
            }
            guard ContinuousClock.now < deadline, process.isRunning else {
                kill(process.processIdentifier, SIGKILL)
                throw Failure.didNotStart(text)
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Stops the server. SIGKILL, because the test runner's threads block SIGTERM and a child
    /// started from one inherits that mask.
    func stop() async {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
        }
        _ = await eventually { !process.isRunning }
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
        }
    }
}
