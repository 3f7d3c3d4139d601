import Foundation
import Testing
import TestSupport

/// BIP-329's own test vectors and those of its reference implementation (python-bip329),
/// imported and exported by the built binary into a real database.
///
/// What the BIP asks of an importer, and what walletwatch does with each record:
/// - `tx` records: the label becomes tags on that txid, split on commas (CLI.md: `"label":
///   "tag1, tag2"`); txids not ingested yet wait for their transaction (SPEC section 3).
/// - `addr`, `pubkey`, `input`, `output`, `xpub`, `spscan` ("an importing wallet may ignore
///   records it does not store"), and types the BIP does not define ("should ignore types not
///   defined here"): skipped, and counted by type.
/// - `origin` and `spendable`: optional; not kept (a tag belongs to the txid, whichever
///   wallet saw it), so an export carries `type`, `ref` and `label` only.
/// Every expected figure is counted here from the file's own lines.
@Suite("CLI: BIP-329 test vectors")
struct BIP329VectorCLITests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/bip329")
    static let files = ["bip-0329-test-vectors.jsonl", "python-bip329-test-vectors.jsonl"]

    /// What a vector file holds, read line by line with Foundation's JSON parser.
    struct Vectors {
        let path: String
        let records: [[String: Any]]

        init(_ name: String) throws {
            path = BIP329VectorCLITests.fixtures.appendingPathComponent(name).path
            let text = try String(contentsOfFile: path, encoding: .utf8)
            records = try text.split(separator: "\n").filter { !$0.allSatisfy(\.isWhitespace) }.map { line in
                try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
            }
        }

        var txRecords: [[String: Any]] { records.filter { $0["type"] as? String == "tx" } }

        /// Records of other types, by type.
        var otherTypes: [String: Int] {
            records.compactMap { $0["type"] as? String }.filter { $0 != "tx" }.reduce(into: [:]) { $0[$1, default: 0] += 1 }
        }

        /// txid -> tags: each label split on commas, trimmed.
        var tagsByTxid: [String: Set<String>] {
            txRecords.reduce(into: [:]) { result, record in
                let tags = ((record["label"] as? String) ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
                result[record["ref"] as! String, default: []].formUnion(tags)
            }
        }
    }

    /// A folder with a config (a static rate, no sources) and its database; the folder lives
    /// as long as the value.
    final class Workspace: @unchecked Sendable {
        let folder = TemporaryDirectory("walletwatch-bip329")
        let cli: CLIRunner

        init() {
            folder.write("walletwatch.toml", """
                [rates]
                provider = "static"
                currencies = ["USD"]
                [rates.static]
                "BTC/USD" = "65000"
                """)
            cli = CLIRunner(folder: folder, now: "2026-11-21T12:00:00Z")
        }

        func run(_ arguments: String...) async throws -> CommandResult { try await cli.run(arguments) }
    }

    @Test("every tx record becomes tags on its txid; every other record is skipped and counted by type", arguments: files)
    func importCounts(file: String) async throws {
        let vectors = try Vectors(file)
        #expect(vectors.records.count >= 7 && !vectors.txRecords.isEmpty)
        let cli = Workspace()

        let result = try await cli.run("tag", "import", vectors.path, "--json")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        let report = try #require(result.object)
        let pairs = vectors.tagsByTxid.values.reduce(0) { $0 + $1.count }
        let tags = vectors.tagsByTxid.values.reduce(into: Set<String>()) { $0.formUnion($1) }
        #expect(report["tx_records"] as? Int == vectors.txRecords.count)
        #expect(report["unlabelled_tx_records"] as? Int == vectors.txRecords.filter { $0["label"] == nil }.count)
        #expect(report["skipped_types"] as? [String: Int] == vectors.otherTypes)
        #expect(report["other_types_skipped"] as? Int == vectors.records.count - vectors.txRecords.count)
        #expect(report["assigned"] as? Int == pairs)
        #expect(report["waiting"] as? Int == pairs, "no transaction is ingested: every label waits for its txid")
        #expect(Set(report["created_tags"] as? [String] ?? []) == tags)
        #expect((report["invalid_lines"] as? [Int])?.isEmpty == true)
        #expect(report["truncated_tags"] as? Int == 0)

        // The tags exist, each waiting on the txids the file gave it.
        let list = try #require(try await cli.run("tag", "list", "--json").objects)
        #expect(Set(list.compactMap { $0["name"] as? String }) == tags)
        for tag in list {
            let name = try #require(tag["name"] as? String)
            #expect(tag["waiting"] as? Int == vectors.tagsByTxid.values.filter { $0.contains(name) }.count, "\(name)")
            #expect(tag["transactions"] as? Int == 0)
        }

        // Importing the same file again adds nothing and creates no tag.
        let again = try #require(try await cli.run("tag", "import", vectors.path, "--json").object)
        #expect(again["assigned"] as? Int == 0 && (again["created_tags"] as? [String])?.isEmpty == true)
    }

    @Test("the text report names each skipped type with its count, as the file holds them", arguments: files)
    func importText(file: String) async throws {
        let vectors = try Vectors(file)
        let cli = Workspace()
        let result = try await cli.run("tag", "import", vectors.path)
        #expect(result.status == 0, "\(result.stderr)")
        let counts = vectors.otherTypes.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        let skipped = vectors.otherTypes.values.reduce(0, +)
        #expect(result.stdout.contains("skipped \(skipped) record(s) of types walletwatch does not use: \(counts)\n"), "\(result.stdout)")
        #expect(result.stdout.contains("on \(vectors.tagsByTxid.count) txid(s)"), "\(result.stdout)")
    }

    @Test("tag export gives back the file's tx records (type, ref, label), and only those; a second round trip is byte for byte", arguments: files)
    func exportRoundTrip(file: String) async throws {
        let vectors = try Vectors(file)
        let cli = Workspace()
        #expect(try await cli.run("tag", "import", vectors.path).status == 0)

        let export = try await cli.run("tag", "export")
        #expect(export.status == 0, "\(export.stderr)")
        let lines = export.stdout.split(separator: "\n")
        let exported = try lines.map { line in try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]) }
        #expect(exported.allSatisfy { Set($0.keys) == ["type", "ref", "label"] }, "origin and spendable are not kept")
        #expect(exported.allSatisfy { $0["type"] as? String == "tx" })
        // Each vector label is one tag, so the records come back as the file wrote them.
        let fileRecords = Set(vectors.txRecords.map { "\($0["type"]!)|\($0["ref"]!)|\($0["label"]!)" })
        #expect(Set(exported.map { "\($0["type"]!)|\($0["ref"]!)|\($0["label"]!)" }) == fileRecords)
        #expect(lines.count == vectors.tagsByTxid.count)

        // The export imported into a fresh database exports the same bytes.
        let exportFile = cli.folder.write("export.jsonl", export.stdout)
        let fresh = Workspace()
        let reimported = try #require(try await fresh.run("tag", "import", exportFile, "--json").object)
        #expect(reimported["tx_records"] as? Int == lines.count && reimported["other_types_skipped"] as? Int == 0)
        #expect(try await fresh.run("tag", "export").stdout == export.stdout)
    }

    @Test("a label longer than a tag name is cut to 64 characters with a warning, not refused (BIP-329: an importer may truncate)")
    func longLabel() async throws {
        let cli = Workspace()
        let long = String(repeating: "Account #1 Transaction ", count: 5)  // 114 characters once trimmed
        let file = cli.folder.write("long.jsonl", """
            { "type": "tx", "ref": "f546156d9044844e02b181026a1a407abfca62e7ea1159f87bbeaa77b4286c74", "label": "\(long)", "origin": "wpkh([d34db33f/84'/0'/1'])" }

            """)
        let result = try await cli.run("tag", "import", file, "--json")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.object?["truncated_tags"] as? Int == 1)
        let warnings = result.stderr.split(separator: "\n")
        #expect(warnings.count == 1 && warnings[0].hasPrefix("warning: line 1 of ") && warnings[0].contains("cut to the first 64"), "\(result.stderr)")
        let cut = String(long.prefix(64)).trimmingCharacters(in: .whitespaces)
        #expect(result.object?["created_tags"] as? [String] == [cut])
    }
}
