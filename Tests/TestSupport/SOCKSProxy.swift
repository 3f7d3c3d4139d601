#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A real SOCKS5 proxy: Debian's `microsocks` on a free port of 127.0.0.2 (scripts/setup
/// installs it). It prints a line to stderr for each connection it makes for a client, naming the target as the
/// client gave it (`client[5] 127.0.0.1: connected to localhost:4242`): a host name there means
/// the name, not an address, reached the proxy.
public final class SOCKSProxy: @unchecked Sendable {
    /// The port it listens on.
    public let port: Int
    private let process: BackgroundProcess
    private let folder = TemporaryDirectory("walletwatch-socks")

    /// It did not answer SOCKS5 within 10 seconds; its stderr.
    public enum Failure: Error { case didNotStart(String) }

    /// The address it listens on: a loopback address of its own, so that the port found free
    /// for it cannot meanwhile be given to one of the test servers, which all listen on
    /// 127.0.0.1 (a client of theirs would then reach the wrong program).
    public static let host = "127.0.0.2"

    /// Starts microsocks and returns once it answers SOCKS5.
    public init() async throws {
        // microsocks cannot pick its own port: one found free is handed to it.
        port = unusedLoopbackPort(host: Self.host)
        let launcher = folder.write("launch.py", Self.launcher)
        process = try BackgroundProcess("/usr/bin/python3", [launcher, "/usr/bin/microsocks", "-i", Self.host, "-p", "\(port)"],
                                        environment: [:], currentDirectory: folder.path)
        let deadline = ContinuousClock.now + .seconds(10)
        while !Self.answersSOCKS5(port: port) {
            guard ContinuousClock.now < deadline, process.isRunning else {
                process.send(SIGKILL)
                throw Failure.didNotStart(process.stderr)
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Runs a program as its child and goes with it, killing it when this test process goes
    /// (a crashed test run cannot stop its proxies): the child dies with the launcher
    /// (PR_SET_PDEATHSIG), and the launcher with its parent. `stop()` kills the launcher.
    static let launcher = #"""
    import ctypes, os, signal, sys, time
    parent = os.getppid()
    child = os.fork()
    if child == 0:
        ctypes.CDLL(None).prctl(1, signal.SIGKILL)
        os.execv(sys.argv[1], sys.argv[1:])
    while os.getppid() == parent:
        pid, status = os.waitpid(child, os.WNOHANG)
        if pid:
            sys.exit(os.waitstatus_to_exitcode(status))
        time.sleep(0.2)
    os.kill(child, signal.SIGKILL)
    """#

    /// `socks5h://127.0.0.2:PORT`: names are resolved by the proxy.
    public var url: String { "socks5h://\(Self.host):\(port)" }

    /// The targets it connected to, as `HOST:PORT`, in order.
    public var targets: [String] {
        process.stderr.split(separator: "\n").compactMap { line in
            line.range(of: "connected to ").map { String(line[$0.upperBound...]) }
        }
    }

    /// Kills it (and with it every connection it carries).
    public func stop() async {
        process.send(SIGKILL)
        _ = await process.exitStatus(within: .seconds(10))
    }

    /// Whether a SOCKS5 proxy answers on the loopback port: a greeting offering no
    /// authentication gets "version 5, no authentication" back. A connection the test makes
    /// and closes at once (microsocks logs nothing for it); checking the answer makes sure it
    /// is microsocks that listens, not some other test's server given the same port.
    private static func answersSOCKS5(port: Int) -> Bool {
        let probe = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(probe) }
        // A loopback answer takes microseconds; the bound only keeps a wrong listener from hanging the test.
        var limit = timeval(tv_sec: 1, tv_usec: 0)
        setsockopt(probe, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr(host)
        address.sin_port = UInt16(port).bigEndian
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(probe, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard connected else { return false }
        let greeting: [UInt8] = [5, 1, 0]
        guard send(probe, greeting, greeting.count, Int32(MSG_NOSIGNAL)) == greeting.count else { return false }
        var answer: [UInt8] = [0, 0]
        return recv(probe, &answer, 2, Int32(MSG_WAITALL)) == 2 && answer == [5, 0]
    }

}
