import Foundation
import Testing
import TestSupport
import WalletWatchSim

/// Writes to stdout or stderr that fail (SPEC.md section 24): `/dev/full` (a full disk), a pipe
/// whose reader closed before the first write, and one whose reader closed after the first
/// line. Never a crash or a death by SIGPIPE, never a silent exit 0: exit 1, and one `error:`
/// line on stderr where stderr still works.
@Suite("CLI: output that cannot be written")
struct OutputFailureCLITests {
    /// How the built binary's streams are set up, by a small Python program that starts it with
    /// SIGPIPE at its default (as a shell does) and reports how it ended.
    enum Target: String {
        case stdoutFull = "stdout-full", stderrFull = "stderr-full"
        case stdoutClosed = "stdout-closed", stderrClosed = "stderr-closed"
        /// stdout is a pipe whose reader reads one line and closes it.
        case stdoutClosedAfterLine = "stdout-closed-after-line"
    }

    struct Outcome: CustomStringConvertible {
        /// The exit code, or minus the signal that ended it.
        let status: Int
        let stdout: String
        let stderr: String
        var description: String { "status \(status), stdout \(stdout.prefix(200).debugDescription), stderr \(stderr.debugDescription)" }
    }

    static let harness = """
        import json, os, subprocess, sys
        target, binary, args = sys.argv[1], sys.argv[2], sys.argv[3:]
        streams = {"stdout": subprocess.PIPE, "stderr": subprocess.PIPE}
        stream = target.split("-")[0]
        if target.endswith("-full"):
            streams[stream] = open("/dev/full", "wb")
        elif target.endswith("-closed"):
            read, write = os.pipe()
            os.close(read)
            streams[stream] = write
        child = subprocess.Popen([binary] + args, stdin=subprocess.DEVNULL, **streams)
        if target == "stdout-closed-after-line":
            child.stdout.readline()
            child.stdout.close()
            child.stdout = None
        out, err = child.communicate(timeout=120)
        print(json.dumps({"status": child.returncode, "stdout": (out or b"").decode("utf-8", "replace"),
                          "stderr": (err or b"").decode("utf-8", "replace")}))
        """

    func run(_ cli: CLIRunner, _ target: Target, _ arguments: String...) async throws -> Outcome {
        try await run(cli, target, arguments)
    }

    func run(_ cli: CLIRunner, _ target: Target, _ arguments: [String]) async throws -> Outcome {
        let result = try await ProcessRunner.run("/usr/bin/python3", ["-c", Self.harness, target.rawValue, cli.binary] + arguments,
                                                 environment: cli.environment, currentDirectory: cli.folder)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stderr)")
        return Outcome(status: report["status"] as? Int ?? -999, stdout: report["stdout"] as? String ?? "", stderr: report["stderr"] as? String ?? "")
    }

    /// A ledger of 3,000 movements: `tx list` prints far more than a pipe holds (64 KiB).
    final class Ledger: Sendable {
        let folder = TemporaryDirectory("walletwatch-output-failure")
        let simulator: Simulator
        var cli: CLIRunner { CLIRunner(folder: folder) }

        init() async throws {
            simulator = try await Simulator.start(scenario: Scenario(wallets: [
                WalletScenario(name: "ark", token: "t", generatedMovements: GeneratedMovements(count: 3_000, seed: 5)),
            ]))
            folder.writeBarkdConfig(simulator)
            let ingest = try await cli.run("ingest")
            #expect(ingest.status == 0, "\(ingest.stderr)")
        }
    }

    @Test("stdout on a full disk (/dev/full): tx list, export csv and --help end with exit 1 and one error line naming the cause")
    func stdoutFull() async throws {
        let ledger = try await Ledger()
        let cli = ledger.cli
        for arguments in [["tx", "list"], ["tx", "list", "--json"], ["export", "csv"], ["export", "csv", "--what", "allocations"], ["--help"]] {
            let outcome = try await run(cli, .stdoutFull, arguments)
            #expect(outcome.status == 1, "\(arguments): \(outcome)")
            #expect(outcome.stderr == "error: could not write the output: No space left on device\n", "\(arguments): \(outcome)")
        }
        // The erroring command prints nothing on stdout: its own error and exit code stand.
        let refused = try await run(cli, .stdoutFull, "tx", "list", "--asset", "nope")
        #expect(refused.status == 65 && refused.stderr.hasPrefix("error: no asset named 'nope'"), "\(refused)")
        // A FILE on a full disk: an error naming it, exit 1, never "exported ... rows".
        let toFile = try await run(cli, .stdoutFull, "export", "csv", "/dev/full")
        #expect(toFile.status == 1, "\(toFile)")
        #expect(toFile.stderr == "error: could not write /dev/full: No space left on device; what it holds is incomplete\n", "\(toFile)")
        await ledger.simulator.stop()
    }

    @Test("stderr on a full disk: an erroring command and a command that reports on stderr end with exit 1, no crash")
    func stderrFull() async throws {
        let ledger = try await Ledger()
        let cli = ledger.cli
        let refused = try await run(cli, .stderrFull, "tx", "list", "--asset", "nope")
        #expect(refused.status == 1 && refused.stdout.isEmpty, "\(refused)")
        let usage = try await run(cli, .stderrFull, "tx", "list", "--no-such-option")
        #expect(usage.status == 1, "\(usage)")
        let exported = try await run(cli, .stderrFull, "export", "csv", "--what", "allocations", "allocations.csv")
        #expect(exported.status == 1, "the line 'exported ... row(s)' could not be written: \(exported)")
        // Nothing on stderr to write: a normal command is unaffected.
        let listed = try await run(cli, .stderrFull, "tx", "list", "--json")
        #expect(listed.status == 0 && listed.stdout.hasPrefix("["), "\(listed.status)")
        await ledger.simulator.stop()
    }

    @Test("a closed pipe (EPIPE, SIGPIPE at its default): before the first write and after the first line, exit 1 with one error line")
    func closedPipe() async throws {
        let ledger = try await Ledger()
        let cli = ledger.cli
        for arguments in [["tx", "list"], ["export", "csv"]] {
            for target in [Target.stdoutClosed, .stdoutClosedAfterLine] {
                let outcome = try await run(cli, target, arguments)
                #expect(outcome.status == 1, "\(arguments) \(target): \(outcome.status) \(outcome.stderr)")
                #expect(outcome.stderr == "error: could not write the output: Broken pipe\n", "\(arguments) \(target): \(outcome.stderr)")
            }
        }
        let refused = try await run(cli, .stderrClosed, "tx", "list", "--asset", "nope")
        #expect(refused.status == 1, "\(refused)")
        await ledger.simulator.stop()
    }
}
