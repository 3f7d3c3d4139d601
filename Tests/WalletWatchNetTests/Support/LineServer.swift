import Foundation
import TestSupport
@testable import WalletWatchNet

/// A real line-echo server, plain TCP or TLS: Python 3's asyncio in a subprocess (with the
/// system's OpenSSL for TLS), on a free port. It echoes every line back; a line `close` makes it
/// close that connection (TLS with close_notify) without echoing it. It reports what it saw on
/// stdout, one event a line, which tests read back: `ACCEPT n` when connection n is made (after
/// the TLS handshake), `LINE n bytes` for each line received, `END n total` when it ends.
final class LineServer: @unchecked Sendable {
    /// The port it listens on.
    let port: Int
    /// The host it listens on (`127.0.0.1`, or `::1`).
    let host: String
    /// For TLS: its self-signed certificate (CN and SAN 127.0.0.1, ::1 and localhost).
    let certificate: TestCertificate?
    private let process: BackgroundProcess
    private let folder: TemporaryDirectory

    enum Failure: Error { case didNotStart(String) }

    /// Starts a server; `tls` gives it a fresh self-signed certificate.
    init(tls: Bool, host: String = "127.0.0.1") async throws {
        folder = TemporaryDirectory("walletwatch-line-server")
        self.host = host
        let script = folder.write("line_server.py", Self.script)
        certificate = tls ? try await TestCertificate(in: folder) : nil
        let arguments = [script, host] + (certificate.map { [$0.certificatePath, $0.keyPath] } ?? [])
        process = try BackgroundProcess("/usr/bin/python3", ["-u"] + arguments, environment: ["PATH": "/usr/bin:/bin"], currentDirectory: folder.path)
        let deadline = ContinuousClock.now + .seconds(20)
        var found: Int?
        while found == nil {
            found = process.stdout.split(separator: "\n").first { $0.hasPrefix("LISTENING ") }.flatMap { Int($0.dropFirst("LISTENING ".count)) }
            if found != nil { break }
            guard ContinuousClock.now < deadline, process.isRunning else {
                process.send(SIGKILL)
                throw Failure.didNotStart(process.stdout + process.stderr)
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        port = found!
    }

    /// The endpoint of this server: `tcp://` or, with a certificate, `ssl://` with `pin`.
    func endpoint(pin: CertificatePin? = nil, host: String? = nil) -> StreamEndpoint {
        StreamEndpoint(host: host ?? self.host, port: port, security: certificate == nil ? .plain : .tls(pin: pin))
    }

    /// Its event lines so far.
    var events: [String] { process.stdout.split(separator: "\n").map(String.init) }

    /// Connections made (after the TLS handshake, for TLS).
    var accepted: Int { events.filter { $0.hasPrefix("ACCEPT ") }.count }

    /// The bytes of application data connection `connection` received, once it has ended.
    func totalReceived(connection: Int) -> Int? {
        events.first { $0.hasPrefix("END \(connection) ") }.flatMap { Int($0.split(separator: " ")[2]) }
    }

    /// What went to stderr (tracebacks, TLS handshake failures).
    var errors: String { process.stderr }

    /// Stops the server (SIGKILL: the test runner's threads block SIGTERM, and its children inherit that).
    func stop() async {
        process.send(SIGKILL)
        _ = await process.exitStatus(within: .seconds(10))
    }

    static let script = #"""
    import asyncio, os, ssl, sys

    async def exit_with_parent(parent):
        # A test run that crashes cannot stop its servers: they go with it instead of lingering.
        while os.getppid() == parent:
            await asyncio.sleep(0.5)
        os._exit(0)

    async def main():
        guard = asyncio.create_task(exit_with_parent(os.getppid()))
        host = sys.argv[1]
        context = None
        if len(sys.argv) > 3:
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(sys.argv[2], sys.argv[3])
        count = 0

        async def handle(reader, writer):
            nonlocal count
            count += 1
            number = count
            print(f"ACCEPT {number}", flush=True)
            total = 0
            try:
                while True:
                    line = await reader.readline()
                    if not line:
                        break
                    total += len(line)
                    print(f"LINE {number} {len(line)}", flush=True)
                    if line == b"close\n":
                        break
                    writer.write(line)
                    await writer.drain()
            except Exception as error:
                print(f"ERROR {number} {error!r}", flush=True)
            finally:
                print(f"END {number} {total}", flush=True)
                writer.close()

        server = await asyncio.start_server(handle, host, 0, ssl=context, limit=16 << 20)
        print(f"LISTENING {server.sockets[0].getsockname()[1]}", flush=True)
        async with server:
            await server.serve_forever()

    asyncio.run(main())
    """#
}

/// A throwaway self-signed certificate made by `openssl req -x509`.
struct TestCertificate: Sendable {
    let certificatePath: String
    let keyPath: String
    private let folder: String

    enum Failure: Error { case openssl(String) }

    init(in folder: TemporaryDirectory) async throws {
        self.folder = folder.path
        certificatePath = folder.file("cert.pem")
        keyPath = folder.file("key.pem")
        _ = try await Self.openssl(["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                                    "-keyout", keyPath, "-out", certificatePath, "-days", "1", "-subj", "/CN=127.0.0.1",
                                    "-addext", "subjectAltName=IP:127.0.0.1,IP:::1,DNS:localhost"], in: self.folder)
    }

    /// The certificate's SHA-256 as a pin, computed here from the PEM file. The tests that
    /// check the computation itself compare it with ``opensslFingerprint()``.
    var pin: CertificatePin {
        CertificatePin(certificatePEM: (try? String(contentsOfFile: certificatePath, encoding: .utf8)) ?? "")!
    }

    /// What `openssl x509 -noout -fingerprint -sha256` says of the same file, such as
    /// `sha256 Fingerprint=80:FD:...`.
    func opensslFingerprint() async throws -> String {
        try await Self.openssl(["x509", "-noout", "-fingerprint", "-sha256", "-in", certificatePath], in: folder)
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private static func openssl(_ arguments: [String], in folder: String) async throws -> String {
        let result = try await ProcessRunner.run("/usr/bin/openssl", arguments, environment: ["PATH": "/usr/bin:/bin"], currentDirectory: folder)
        guard result.status == 0 else { throw Failure.openssl(result.stderr) }
        return result.stdout
    }
}
