import ArgumentParser
import Foundation
import WalletWatchCore
import WalletWatchEngine
import WalletWatchPresentation

struct TagCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tag",
        abstract: "Label transactions with tags; import and export BIP-329 labels.",
        discussion: """
            Tags attach to txids, not to ledger rows: refreshes, status changes and the same txid \
            under two assets all keep them. Tag names are unique regardless of case, 1 to 64 \
            characters, without commas. A deactivated tag stays on its transactions but cannot \
            be newly assigned.
            """,
        subcommands: [Create.self, List.self, Add.self, Remove.self, Rename.self, Activate.self, Deactivate.self,
                      Delete.self, Export.self, Import.self])

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "create",
            abstract: "Create a tag.",
            discussion: "Example:\n  walletwatch tag create groceries --color '#2E86DE' --emoji 🛒")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The tag's name.") var name: String
        @Option(help: "#RRGGBB.") var color: String?
        @Option(help: "One emoji.") var emoji: String?

        func run() async throws {
            let tag = try CommandContext.load(global).engine.tags.create(name: name, color: color, emoji: emoji)
            Output.line("created tag \(TagOutput.label(tag))")
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List tags with how many transactions carry them.",
            discussion: """
                `waiting` counts labels imported for transactions not ingested yet.

                Example:
                  walletwatch tag list --json
                """)
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: JSONOption

        func run() async throws {
            let summaries = try CommandContext.load(global).engine.tags.summaries()
            if output.json {
                Output.json(.array(summaries.map { summary in
                    .object([
                        "name": .string(summary.tag.name), "color": .string(summary.tag.colorHex),
                        "emoji": .string(summary.tag.emoji), "active": .bool(summary.tag.isActive),
                        "transactions": .int(Int64(summary.transactions)), "waiting": .int(Int64(summary.waiting)),
                    ])
                }))
                return
            }
            guard !summaries.isEmpty else {
                Output.line("no tags yet: walletwatch tag add TXID groceries")
                return
            }
            var table = TextTable([.init("TAG"), .init("COLOR"), .init("TRANSACTIONS", .right), .init("WAITING", .right), .init("ACTIVE")])
            for summary in summaries {
                table.add([TagOutput.label(summary.tag), summary.tag.colorHex ?? "-", "\(summary.transactions)",
                           "\(summary.waiting)", summary.tag.isActive ? "yes" : "no"])
            }
            Output.lines(table.render())
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Tag a transaction (tags that do not exist yet are created).",
            discussion: """
                An unknown txid is refused (exit 65).

                Examples:
                  walletwatch tag add ark:ark:42 groceries
                  walletwatch tag add 3f9a...c1 salary "house deposit"
                """)
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The transaction's txid.") var txid: String
        @Argument(help: "One or more tag names.") var tags: [String] = []

        func validate() throws {
            guard !tags.isEmpty else { throw ValidationError("give at least one tag name") }
        }

        func run() async throws {
            let created = try CommandContext.load(global).engine.tags.tag(txid: txid, with: tags)
            for name in created { Output.line("created tag \(name)") }
            Output.line("tagged \(txid): \(tags.joined(separator: ", "))")
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove",
            abstract: "Remove tags from a transaction.",
            discussion: "Example:\n  walletwatch tag remove ark:ark:42 groceries")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The transaction's txid.") var txid: String
        @Argument(help: "One or more tag names.") var tags: [String] = []

        func validate() throws {
            guard !tags.isEmpty else { throw ValidationError("give at least one tag name") }
        }

        func run() async throws {
            let absent = try CommandContext.load(global).engine.tags.untag(txid: txid, tags: tags)
            for name in absent { Output.warning("\(txid) did not carry tag '\(name)'") }
            Output.line("untagged \(txid)")
        }
    }

    struct Rename: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rename",
            abstract: "Rename a tag; its transactions keep it.",
            discussion: "Example:\n  walletwatch tag rename food groceries")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The current name.") var old: String
        @Argument(help: "The new name.") var new: String

        func run() async throws {
            let tag = try CommandContext.load(global).engine.tags.rename(old, to: new)
            Output.line("renamed tag '\(old)' to \(TagOutput.label(tag))")
        }
    }

    struct Activate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "activate", abstract: "Allow a deactivated tag to be assigned again.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The tag's name.") var name: String

        func run() async throws {
            let tag = try CommandContext.load(global).engine.tags.setActive(name, true)
            Output.line("tag \(TagOutput.label(tag)) is active")
        }
    }

    struct Deactivate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "deactivate",
            abstract: "Keep a tag on its transactions but stop it being assigned.",
            discussion: "Example:\n  walletwatch tag deactivate 2025-vacation")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The tag's name.") var name: String

        func run() async throws {
            let tag = try CommandContext.load(global).engine.tags.setActive(name, false)
            Output.line("tag \(TagOutput.label(tag)) is deactivated; it stays on its transactions")
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete",
            abstract: "Delete a tag and its assignments (the transactions stay).",
            discussion: "Example:\n  walletwatch tag delete old-label")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The tag's name.") var name: String

        func run() async throws {
            let (tag, count) = try CommandContext.load(global).engine.tags.delete(name)
            Output.line("deleted tag '\(tag.name)' from \(count) transaction(s)")
        }
    }

    struct Export: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "export",
            abstract: "Export tags as BIP-329 labels (JSON lines).",
            discussion: """
                One line per tagged txid: {"type":"tx","ref":TXID,"label":"tag1, tag2"}. Wallets \
                that speak BIP-329 (Sparrow, Bitcoin Keeper, Trezor Suite, Cove, Liana) import the \
                on-chain ones; Ark txids are exported too and simply unknown to them. Without FILE \
                the labels go to stdout; a FILE is created readable by you only.

                Examples:
                  walletwatch tag export --format bip329 labels.jsonl
                  walletwatch tag export > labels.jsonl
                """)
        @OptionGroup var global: GlobalOptions
        @Option(help: "Only bip329.") var format = "bip329"
        @Argument(help: "Where to write (default: stdout).") var file: String?

        func validate() throws {
            guard format == "bip329" else { throw ValidationError("--format '\(format)' is not supported; use bip329") }
        }

        func run() async throws {
            let (text, count) = try CommandContext.load(global).engine.tags.exportLabels()
            guard let file else {
                Output.data(text)
                return
            }
            try PrivateFile.write(text, to: file)
            Output.standardError("exported \(count) labelled transaction(s) to \(file)")
        }
    }

    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Import BIP-329 labels as tags.",
            discussion: """
                `tx` records become tags (labels split on commas); missing tags are created; labels \
                for txids not ingested yet are kept and apply when those transactions arrive. \
                Records of other types (addr, pubkey, input, output, xpub, spscan, and types \
                BIP-329 does not define) are skipped and counted by type; `origin` and `spendable` \
                are not kept. A tag longer than 64 characters is cut to 64, with a warning.

                The file is read a line at a time and imported in one transaction: memory stays \
                small whatever its size (a file of millions of labels imports in seconds). A \
                malformed line (not JSON, not a record, bytes that are not UTF-8, longer than 1 MiB) \
                makes the file import nothing (exit 65, naming the lines) unless --skip-invalid \
                is given. Warnings and the JSON list at most the first \(LabelImportReport.listedLines) \
                lines of each kind, and count the rest.

                Examples:
                  walletwatch tag import sparrow-labels.jsonl
                  walletwatch tag import labels.jsonl --skip-invalid --json
                """)
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The BIP-329 file.") var file: String
        @Flag(help: "Import the valid lines of a file that has malformed ones.") var skipInvalid = false
        @OptionGroup var output: JSONOption

        func run() async throws {
            let context = try CommandContext.load(global)
            let report = try context.engine.tags.importLabels(file: file, skipInvalid: skipInvalid)
            for invalid in report.invalid { Output.warning("skipped line \(invalid.line) of \(file): \(invalid.reason)") }
            for cut in report.truncated {
                Output.warning("line \(cut.line) of \(file): tag '\(cut.label.prefix(20))…' (\(cut.label.count) characters) cut to the first \(Name.maximumLength)")
            }
            if report.invalidCount > report.invalid.count {
                Output.warning("skipped \(report.invalidCount - report.invalid.count) more malformed line(s) of \(file)")
            }
            if report.truncatedCount > report.truncated.count {
                Output.warning("cut \(report.truncatedCount - report.truncated.count) more tag name(s) of \(file) to \(Name.maximumLength) characters")
            }
            let result = report.result
            if output.json {
                Output.json(.object([
                    "assigned": .int(Int64(result.assigned)), "created_tags": .array(result.createdTags.map(JSONValue.string)),
                    "created_tag_count": .int(Int64(result.createdTagCount)),
                    "waiting": .int(Int64(result.waiting)), "tx_records": .int(Int64(report.txRecords)),
                    "unlabelled_tx_records": .int(Int64(report.unlabelled)),
                    "other_types_skipped": .int(Int64(report.otherTypes)),
                    "skipped_types": .object(report.skippedTypes.sorted { $0.key < $1.key }.map { JSONValue.Member($0.key, .int(Int64($0.value))) }),
                    "truncated_tags": .int(Int64(report.truncatedCount)),
                    "invalid_lines": .array(report.invalid.map { .int(Int64($0.line)) }),
                    "invalid_line_count": .int(Int64(report.invalidCount)),
                    "inactive_tags_skipped": .int(Int64(result.inactiveSkipped)),
                ]))
                return
            }
            Output.line("imported \(result.assigned) label(s) on \(result.transactions) txid(s); created \(result.createdTagCount) tag(s); \(result.waiting) wait for transactions not ingested yet")
            let used = report.skippedTypes.filter { BIP329.definedTypes.contains($0.key) }
            let undefined = report.skippedTypes.filter { !BIP329.definedTypes.contains($0.key) }
            let counts = { (types: [String: Int]) in types.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ") }
            if !used.isEmpty {
                Output.line("skipped \(used.values.reduce(0, +)) record(s) of types walletwatch does not use: \(counts(used))")
            }
            if !undefined.isEmpty {
                Output.line("skipped \(undefined.values.reduce(0, +)) record(s) of types BIP-329 does not define: \(counts(undefined))")
            }
            if report.unlabelled > 0 { Output.line("left \(report.unlabelled) tx record(s) without a label as they were") }
            if result.inactiveSkipped > 0 { Output.line("skipped \(result.inactiveSkipped) label(s) naming deactivated tags") }
        }
    }
}

/// How a tag is written in messages: its emoji, then its name.
enum TagOutput {
    static func label(_ tag: Tag) -> String { (tag.emoji.map { "\($0) " } ?? "") + tag.name }
}
