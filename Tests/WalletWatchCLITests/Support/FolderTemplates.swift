import Foundation
import TestSupport

/// A command that writes a test's starting folder failed: every test that would copy it fails
/// with this, not only the first.
struct SetupCommandError: Error, CustomStringConvertible {
    let arguments: [String]
    let result: CommandResult

    var description: String { "walletwatch \(arguments.joined(separator: " ")): exit \(result.status): \(result.stderr)" }
}

/// Folders that several tests start from, each written once in the test process (through the
/// built binary, as the test would have written it) and held as its files (so that no template
/// folder outlives the process). The first test to ask for a key writes it; the others, in any
/// suite, get a copy to write into a folder of their own.
actor FolderTemplates {
    static let shared = FolderTemplates()
    private var templates: [String: Task<FolderSnapshot, any Error>] = [:]

    /// The snapshot for `key`, written by `build` into an empty folder the first time.
    func snapshot(_ key: String, build: @escaping @Sendable (TemporaryDirectory) async throws -> Void) async throws -> FolderSnapshot {
        if let template = templates[key] { return try await template.value }
        let task = Task {
            let folder = TemporaryDirectory("walletwatch-template")
            try await build(folder)
            return try FolderSnapshot(of: folder.path)
        }
        templates[key] = task
        do {
            return try await task.value
        } catch {
            templates[key] = nil
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
