import Foundation
import Testing
import TestSupport

/// `tag import` reads its file a line at a time (SPEC.md section 24): every line it cannot use
/// is named by its number, bytes that are not UTF-8 and a line past 1 MiB included, and a file
/// it refuses imports nothing, however late the bad line comes.
@Suite("CLI: tag import, line by line")
struct TagImportCLITests {
    let folder = TemporaryDirectory("walletwatch-tag-import")
    var cli: CLIRunner { CLIRunner(folder: folder) }

    init() {
        folder.write("walletwatch.toml", "database = \"walletwatch.sqlite\"\n")
    }

    static func record(_ txid: String, _ label: String) -> String {
        #"{"type": "tx", "ref": "\#(txid)", "label": "\#(label)"}"#
    }

    /// Writes `lines` (bytes, each without its line feed) as a file, joined by `\n`.
    func file(_ name: String, _ lines: [[UInt8]], finalNewline: Bool = true) throws -> String {
        let path = folder.file(name)
        var bytes = Array(lines.joined(separator: [0x0A]))
        if finalNewline { bytes.append(0x0A) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    func tags() async throws -> [String] {
        try #require(try await cli.run("tag", "list", "--json").objects).compactMap { $0["name"] as? String }
    }

    @Test("bytes that are not UTF-8 and a line past 1 MiB are named by their line; the file imports nothing (exit 65)")
    func badLinesNamed() async throws {
        let long = Self.record("c3", String(repeating: "x", count: 1_100_000))
        let beforeBadByte = Array(#"{"type": "tx", "ref": "b2", "label": "caf"#.utf8)
        let path = try file("labels.jsonl", [
            Array(Self.record("a1", "rent").utf8),
            beforeBadByte + [0xE9] + Array(#"", "origin": "x"}"#.utf8),
            Array("".utf8),
            Array(long.utf8),
            Array("\u{FEFF}not json".utf8),
            Array(Self.record("d4", "food").utf8),
        ])
        let refused = try await cli.run("tag", "import", path)
        #expect(refused.status == 65, "\(refused.stderr)")
        #expect(refused.stderr.hasPrefix("""
            error: 3 malformed line(s) in \(path), nothing imported (line 2: not valid UTF-8 (the byte 0xE9 at byte \(beforeBadByte.count + 1) \
            of the line); save the file as UTF-8; line 4: longer than 1048576 bytes (\(long.utf8.count)); a BIP-329 record is one JSON \
            object on one line; line 5: 
            """), "\(refused.stderr)")
        #expect(refused.stderr.hasSuffix("; fix them or pass --skip-invalid\n"), "\(refused.stderr)")
        #expect(try await tags().isEmpty, "nothing of the refused file")

        let skipped = try await cli.run("tag", "import", path, "--skip-invalid", "--json")
        #expect(skipped.status == 0, "\(skipped.stderr)")
        #expect(skipped.object?["invalid_lines"] as? [Int] == [2, 4, 5])
        #expect(skipped.object?["invalid_line_count"] as? Int == 3)
        #expect(skipped.object?["assigned"] as? Int == 2 && skipped.object?["tx_records"] as? Int == 2)
        let warnings = skipped.stderr.split(separator: "\n")
        #expect(warnings.count == 3 && warnings[0].hasPrefix("warning: skipped line 2 of \(path): not valid UTF-8"), "\(skipped.stderr)")
        #expect(try await tags().sorted() == ["food", "rent"])
    }

    @Test("a bad line after 20,000 good ones: nothing of the file is written; the last line needs no line feed")
    func allOrNothing() async throws {
        var lines = (1...20_000).map { Array(Self.record(String(format: "%064x", $0), "bulk-\($0 % 50), all").utf8) }
        lines.append(Array(#"{"type": "tx", "label": "no ref"}"#.utf8))
        let refusedPath = try file("late.jsonl", lines)
        let refused = try await cli.run("tag", "import", refusedPath)
        #expect(refused.status == 65 && refused.stderr.contains("1 malformed line(s)") && refused.stderr.contains("line 20001: "), "\(refused.stderr)")
        #expect(try await tags().isEmpty)
        #expect(try await sqlite(folder.file("walletwatch.sqlite"), "SELECT COUNT(*) FROM tag_assignments") == "0")

        lines.removeLast()
        let path = try file("good.jsonl", lines, finalNewline: false)
        let imported = try await cli.run("tag", "import", path)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.hasPrefix("imported 40000 label(s) on 20000 txid(s); created 51 tag(s); 40000 wait"), "\(imported.stdout)")
        #expect(try await sqlite(folder.file("walletwatch.sqlite"), "SELECT COUNT(*) FROM tag_assignments") == "40000")
        // The same labels again: nothing new, no tag created.
        let again = try await cli.run("tag", "import", path, "--json")
        #expect(again.object?["assigned"] as? Int == 0 && again.object?["created_tag_count"] as? Int == 0)
    }

    @Test("tags are matched case-insensitively in every script, also against tags made before the import")
    func existingTags() async throws {
        #expect(try await cli.run("tag", "create", "Café").status == 0)
        let path = try file("case.jsonl", [Array(Self.record("e5", "CAFÉ, café, Neu").utf8), Array(Self.record("f6", "NEU").utf8)])
        let imported = try await cli.run("tag", "import", path, "--json")
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.object?["created_tags"] as? [String] == ["Neu"] && imported.object?["assigned"] as? Int == 3)
        #expect(try await tags().sorted() == ["Café", "Neu"])
    }
}
