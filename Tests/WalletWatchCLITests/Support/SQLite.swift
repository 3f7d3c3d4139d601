import Foundation
import TestSupport

/// Queries a database with the sqlite3 command-line tool, as an outside script would.
func sqlite(_ database: String, _ sql: String) async throws -> String {
    let result = try await ProcessRunner.run("/usr/bin/sqlite3", [database, sql], environment: [:], currentDirectory: "/")
    return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
}
