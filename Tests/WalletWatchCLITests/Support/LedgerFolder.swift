import Foundation
import Testing
import TestSupport

/// A folder with a config of static rates and a database written through the command line,
/// with rows in everything `check` looks at: two manual assets (one shared by two goals, one
/// dedicated to a goal, so that a deposit is allocated by Rule 1), the allocation history, a
/// setting, and a month started and completed (its figures and their digest frozen).
///
/// The 14 commands that write it run once per `extraConfig` in the test process (see
/// ``LedgerTemplates``); each ledger is a byte-for-byte copy of that folder in a folder of its
/// own, so a test changes only its own database.
final class LedgerFolder: Sendable {
    let folder = TemporaryDirectory("walletwatch-ledger")

    var database: String { folder.file("walletwatch.sqlite") }

    func cli(_ now: String = "2026-12-01T10:00:00Z") -> CLIRunner { CLIRunner(folder: folder, now: now) }

    init(extraConfig: String = "") async throws {
        try await LedgerTemplates.shared.template(extraConfig: extraConfig).write(into: folder)
    }

    /// Writes the ledger into `folder` through the built binary, as a user would.
    fileprivate static func build(in folder: TemporaryDirectory, extraConfig: String) async throws {
        func cli(_ now: String) -> CLIRunner { CLIRunner(folder: folder, now: now) }
        folder.write("walletwatch.toml", """
            [rates]
            provider = "static"
            currencies = ["USD", "EUR"]
            [rates.static]
            "BTC/USD" = "65000"
            "BTC/EUR" = "60000"
            \(extraConfig)
            """)
        chmod(folder.file("walletwatch.toml"), 0o600)
        let steps: [(String, [String])] = [
            ("2026-11-01T08:00:00Z", ["settings", "set", "time_zone", "Europe/Berlin"]),
            ("2026-11-01T08:00:00Z", ["asset", "add", "Cash", "--currency", "USD"]),
            ("2026-11-01T08:00:00Z", ["asset", "add", "Stack", "--currency", "BTC"]),
            ("2026-11-01T08:00:00Z", ["goal", "add", "House", "--currency", "USD", "--target", "10000", "--deadline", "2027-06-30"]),
            ("2026-11-01T08:00:00Z", ["goal", "add", "Trip", "--currency", "EUR", "--target", "2000", "--deadline", "2026-12-31"]),
            ("2026-11-01T08:00:00Z", ["tx", "add", "Cash", "1000", "--date", "2026-10-15T00:00:00Z"]),
            ("2026-11-01T08:00:00Z", ["tx", "add", "Cash", "-100", "--date", "2026-10-20T00:00:00Z", "--note", "groceries"]),
            ("2026-11-01T08:00:00Z", ["tx", "add", "Stack", "0.1", "--date", "2026-10-15T00:00:00Z"]),
            ("2026-11-01T08:00:00Z", ["allocate", "Cash", "House=500", "Trip=300"]),
            ("2026-11-01T08:00:00Z", ["allocate", "Stack", "House=100%"]),
            ("2026-11-02T08:00:00Z", ["month", "start"]),
            ("2026-11-09T08:00:00Z", ["tx", "add", "Stack", "0.01"]),
            ("2026-11-10T08:00:00Z", ["allocate", "Cash", "House=450", "Trip=400"]),
            ("2026-11-30T20:00:00Z", ["month", "complete"]),
        ]
        for (now, arguments) in steps {
            let result = try await cli(now).run(arguments)
            // Thrown, not only expected: every test that would copy the ledger fails with it.
            guard result.status == 0 else { throw LedgerSetupError(description: "\(arguments): exit \(result.status): \(result.stderr)") }
        }
    }

    /// The txid of the Stack deposit that Rule 1 allocated.
    func rule1Txid() async throws -> String {
        try await sqlite(database, "SELECT txid FROM allocation_history WHERE reason = 'rule1'")
    }
}

/// A command that writes the ledger failed.
struct LedgerSetupError: Error, CustomStringConvertible {
    let description: String
}

/// The ledgers written so far in this test process, one per config, held as the files of their
/// folder (so that no template folder outlives the process). The first test to ask for a
/// config writes it; the others, in any suite, copy it.
actor LedgerTemplates {
    static let shared = LedgerTemplates()
    private var templates: [String: Task<FolderSnapshot, any Error>] = [:]

    func template(extraConfig: String) async throws -> FolderSnapshot {
        if let template = templates[extraConfig] { return try await template.value }
        let task = Task {
            let folder = TemporaryDirectory("walletwatch-ledger-template")
            try await LedgerFolder.build(in: folder, extraConfig: extraConfig)
            return try FolderSnapshot(of: folder.path)
        }
        templates[extraConfig] = task
        do {
            return try await task.value
        } catch {
            templates[extraConfig] = nil
            throw error
        }
    }
}

/// Every file and folder under a folder, with its bytes and permissions.
struct FolderSnapshot: Sendable {
    struct Entry: Sendable {
        let path: String
        let contents: Data?
        let permissions: Int
    }

    let entries: [Entry]

    init(of root: String) throws {
        let manager = FileManager.default
        let paths = (manager.subpaths(atPath: root) ?? []).sorted()
        entries = try paths.map { path in
            let full = (root as NSString).appendingPathComponent(path)
            let attributes = try manager.attributesOfItem(atPath: full)
            let isFolder = attributes[.type] as? FileAttributeType == .typeDirectory
            return Entry(path: path, contents: isFolder ? nil : try Data(contentsOf: URL(fileURLWithPath: full)),
                         permissions: attributes[.posixPermissions] as? Int ?? 0o600)
        }
    }

    /// Writes every entry into `folder` (parents before their files), with its permissions.
    func write(into folder: TemporaryDirectory) throws {
        let manager = FileManager.default
        for entry in entries {
            let path = folder.file(entry.path)
            if let contents = entry.contents {
                guard manager.createFile(atPath: path, contents: contents) else {
                    throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
                }
            } else {
                try manager.createDirectory(atPath: path, withIntermediateDirectories: true)
            }
        }
        // Permissions last, so that a read-only folder's files are written first.
        for entry in entries.reversed() {
            try manager.setAttributes([.posixPermissions: entry.permissions], ofItemAtPath: folder.file(entry.path))
        }
    }
}
