import Foundation
import Testing
import TestSupport

private let systemdAnalyze = "/usr/bin/systemd-analyze"

/// Config/walletwatch.service, checked by systemd's own tools where they are installed
/// (Debian's `systemd` package, which scripts/setup installs). Neither needs systemd running.
@Suite("The systemd unit", .enabled(if: FileManager.default.isExecutableFile(atPath: systemdAnalyze),
                                   "systemd-analyze is not installed (Debian's systemd package; scripts/setup installs it)"))
struct ServiceUnitTests {
    static let analyze = systemdAnalyze
    static let unit = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Config/walletwatch.service").path

    /// The unit as shipped, with ExecStart pointing at the binary this build made (verify checks
    /// that the command exists and is executable; /usr/local/bin/walletwatch need not exist here).
    func installedCopy(in folder: TemporaryDirectory) throws -> String {
        let text = try String(contentsOfFile: Self.unit, encoding: .utf8)
        #expect(text.contains("ExecStart=/usr/local/bin/walletwatch serve --config /etc/walletwatch/walletwatch.toml\n"))
        return folder.write("walletwatch.service", text.replacingOccurrences(of: "ExecStart=/usr/local/bin/walletwatch ",
                                                                             with: "ExecStart=\(BuildProducts.path("walletwatch")) "))
    }

    @Test("systemd-analyze verify finds nothing to say about it (the man page it names is checked apart: --man=no)")
    func verify() async throws {
        let folder = TemporaryDirectory("walletwatch-unit")
        let result = try await ProcessRunner.run(Self.analyze, ["verify", "--man=no", try installedCopy(in: folder)],
                                                 environment: ["PATH": "/usr/bin:/bin"], currentDirectory: folder.path)
        #expect(result.status == 0, "\(result.stdout) \(result.stderr)")
        #expect(result.stdout.isEmpty && result.stderr.isEmpty, "\(result.stdout) \(result.stderr)")
        // The same command fails for a unit with a mistake, so the check above means something.
        let broken = folder.write("broken.service", "[Service]\nExecStart=/nonexistent/walletwatch serve\nRestart=sometimes\n")
        let refused = try await ProcessRunner.run(Self.analyze, ["verify", "--man=no", broken], environment: ["PATH": "/usr/bin:/bin"],
                                                  currentDirectory: folder.path)
        #expect(refused.status != 0)
    }

    @Test("the hardening: its own user, no new privileges, a read-only system with one writable folder, restart on failure; exposure 'OK'")
    func hardening() async throws {
        let text = try String(contentsOfFile: Self.unit, encoding: .utf8)
        let settings = Set(text.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") && $0.contains("=") })
        for required in ["User=walletwatch", "Group=walletwatch", "NoNewPrivileges=yes", "ProtectSystem=strict", "ProtectHome=yes",
                         "PrivateTmp=yes", "ReadWritePaths=/var/lib/walletwatch", "StateDirectory=walletwatch", "Restart=on-failure",
                         "CapabilityBoundingSet=", "UMask=0077"] {
            #expect(settings.contains(required), "\(required)")
        }
        let folder = TemporaryDirectory("walletwatch-unit-security")
        let result = try await ProcessRunner.run(Self.analyze, ["security", "--offline=yes", "--no-pager", try installedCopy(in: folder)],
                                                 environment: ["PATH": "/usr/bin:/bin"], currentDirectory: folder.path)
        #expect(result.status == 0, "\(result.stderr)")
        // "→ Overall exposure level for walletwatch.service: 1.4 OK :-)"
        let line = try #require(result.stdout.split(separator: "\n").first { $0.contains("Overall exposure level") }, "\(result.stdout)")
        let after = try #require(line.range(of: ".service: "), "\(line)")
        let level = try #require(Double(line[after.upperBound...].prefix { $0 != " " }), "\(line)")
        #expect(level <= 2.0, "\(line)")
    }
}
