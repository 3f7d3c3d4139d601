import Foundation
import ArgumentParser
import WalletWatchCore
import WalletWatchEngine
import WalletWatchPresentation

struct TxCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tx",
        abstract: "Record, list and inspect transactions.",
        discussion: """
            Transactions of source assets come from `walletwatch ingest`; manual assets take \
            `tx add`, `tx edit` and `tx delete`. A manual ledger never goes negative: no future \
            dates, no zero amounts, no withdrawal beyond the balance at its date.
            """,
        subcommands: [Add.self, Edit.self, Delete.self, List.self, Show.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Record a deposit (positive) or withdrawal (negative) on a manual asset.",
            discussion: """
                AMOUNT is in the asset's currency: 250.50, -20, 0.015 (BTC), 1500sat (BTC). \
                --date takes 2026-11-02T10:00:00Z or 2026-11-02 (midnight in your time zone); \
                default: now.

                Examples:
                  walletwatch tx add Cash 250.50 --date 2026-11-02T10:00:00Z --note "salary"
                  walletwatch tx add Cash -20
                """)

        @OptionGroup var global: GlobalOptions
        @Argument(help: "The manual asset.") var asset: String
        // Unconditional so that a withdrawal such as -20 is not taken for an option.
        @Argument(parsing: .allUnrecognized, help: ArgumentHelp("The amount, negative for a withdrawal.", valueName: "amount"))
        var amount: [String] = []
        @Option(help: "When it happened (ISO 8601 or yyyy-MM-dd).") var date: String?
        @Option(help: "A free-text note.") var note: String?
        @OptionGroup var output: JSONOption

        func validate() throws {
            _ = try AmountArgument.single(amount)
        }

        func run() async throws {
            let context = try CommandContext.load(global)
            let zone = context.engine.preferences.displayTimeZone
            let listing = try context.engine.ledger.addTransaction(
                asset: asset, amount: try AmountArgument.single(amount),
                date: try date.map { try TimeInput.parse($0, zone: zone, option: "--date") }, note: note)
            if output.json {
                Output.json(TransactionDocument.json(listing, detailed: true))
            } else {
                Output.line("recorded \(listing.transaction.txid): \(listing.money) on '\(listing.assetName)' at \(Display.time(listing.transaction.date, zone))")
            }
        }
    }

    struct Edit: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "edit",
            abstract: "Change the amount, date or note of a manual transaction.",
            discussion: """
                Refused when the change would make the balance negative at any point; the message \
                names the later transaction that would go negative.

                Examples:
                  walletwatch tx edit manual:3f2a9c1b7e4d --amount 240
                  walletwatch tx edit manual:3f2a9c1b7e4d --date 2026-11-03 --note "corrected"
                """)

        @OptionGroup var global: GlobalOptions
        @Argument(help: "The transaction's txid.") var txid: String
        @Option(parsing: .unconditional, help: "The new amount (negative for a withdrawal).") var amount: String?
        @Option(help: "The new date.") var date: String?
        @Option(help: "A new note.") var note: String?
        @Flag(help: "Remove the note.") var clearNote = false
        @OptionGroup var output: JSONOption

        func validate() throws {
            guard amount != nil || date != nil || note != nil || clearNote else {
                throw ValidationError("nothing to change: give --amount, --date, --note or --clear-note")
            }
            if note != nil && clearNote { throw ValidationError("--note and --clear-note exclude each other") }
        }

        func run() async throws {
            let context = try CommandContext.load(global)
            let zone = context.engine.preferences.displayTimeZone
            let edit = ManualTransactionEdit(
                amount: amount,
                date: try date.map { try TimeInput.parse($0, zone: zone, option: "--date") },
                note: clearNote ? .some(nil) : note.map { .some($0) })
            let listing = try context.engine.ledger.editTransaction(txid: txid, edit: edit)
            if output.json {
                Output.json(TransactionDocument.json(listing, detailed: true))
            } else {
                Output.line("updated \(listing.transaction.txid): \(listing.money) at \(Display.time(listing.transaction.date, zone))")
            }
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete",
            abstract: "Delete a manual transaction.",
            discussion: """
                Refused when a later withdrawal depends on it. Its tags stay attached to the txid.

                Example:
                  walletwatch tx delete manual:3f2a9c1b7e4d
                """)

        @OptionGroup var global: GlobalOptions
        @Argument(help: "The transaction's txid.") var txid: String
        @OptionGroup var output: JSONOption

        func run() async throws {
            let context = try CommandContext.load(global)
            let listing = try context.engine.ledger.deleteTransaction(txid: txid)
            if output.json {
                Output.json(TransactionDocument.json(listing, detailed: true))
            } else {
                Output.line("deleted \(listing.transaction.txid) (\(listing.money) on '\(listing.assetName)')")
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List transactions, newest first.",
            discussion: """
                Dates (--since, --until) take 2026-11-02 (a whole day in your time zone) or an \
                ISO 8601 instant.

                Examples:
                  walletwatch tx list --asset Cash --since 2026-11-01
                  walletwatch tx list --tag groceries --json
                  walletwatch tx list --status pending
                """)

        @OptionGroup var global: GlobalOptions
        @Option(help: "Only this asset.") var asset: String?
        @Option(help: "Only transactions with this tag.") var tag: String?
        @Option(help: "Dated on or after.") var since: String?
        @Option(help: "Dated on or before.") var until: String?
        @Option(help: "pending, confirmed or failed.") var status: String?
        @Option(help: "At most this many.") var limit: Int?
        @OptionGroup var output: JSONOption

        func validate() throws {
            if let status, TransactionStatus(rawValue: status) == nil {
                throw ValidationError("--status '\(status)' is not accepted; use pending, confirmed or failed")
            }
            if let limit, limit < 1 { throw ValidationError("--limit must be at least 1") }
        }

        func run() async throws {
            let context = try CommandContext.load(global)
            let zone = context.engine.preferences.displayTimeZone
            let filter = TransactionFilter(
                asset: asset, tag: tag,
                since: try since.map { try TimeInput.parse($0, zone: zone, option: "--since") },
                until: try until.map { try TimeInput.parseEnd($0, zone: zone, option: "--until") },
                status: status.flatMap(TransactionStatus.init(rawValue:)), limit: limit)
            let listings = try context.engine.ledger.transactions(filter)
            if output.json {
                Output.json(.array(listings.map { TransactionDocument.json($0) }))
            } else if listings.isEmpty {
                Output.line("no transactions")
            } else {
                Output.lines(TransactionTable.render(listings, zone: zone))
            }
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Show one transaction (every asset it touches) with its tags.",
            discussion: "Example:\n  walletwatch tx show ark:ark:42 --json")

        @OptionGroup var global: GlobalOptions
        @Argument(help: "The transaction's txid.") var txid: String
        @OptionGroup var output: JSONOption

        func run() async throws {
            let context = try CommandContext.load(global)
            let listings = try context.engine.ledger.transactions(txid: txid)
            if output.json {
                // One document: the row itself, or an array when the txid touches two assets.
                Output.json(listings.count == 1
                    ? TransactionDocument.json(listings[0], detailed: true)
                    : .array(listings.map { TransactionDocument.json($0, detailed: true) }))
                return
            }
            let zone = context.engine.preferences.displayTimeZone
            for (index, listing) in listings.enumerated() {
                let tx = listing.transaction
                if index > 0 { Output.line() }
                Output.line("txid        \(tx.txid)")
                Output.line("asset       \(listing.assetName)")
                Output.line("amount      \(listing.money) (\(tx.direction.rawValue))")
                if listing.value != nil {
                    Output.line("value       \(TransactionTable.valueText(listing)) at its date")
                }
                Output.line("type        \(tx.type.rawValue)")
                Output.line("status      \(tx.status.rawValue)")
                Output.line("date        \(Display.timeWithSeconds(tx.date, zone))")
                if let fee = tx.fee { Output.line("fee         \(Display.money(fee, listing.currency))") }
                if let round = tx.round { Output.line("round       \(round)") }
                if let board = tx.boardTxid { Output.line("board txid  \(board)") }
                if let counterparty = tx.counterparty { Output.line("to/from     \(counterparty)") }
                if let note = tx.note { Output.line("note        \(note)") }
                Output.line("tags        \(listing.tags.isEmpty ? "-" : listing.tags.joined(separator: ", "))")
                Output.line("first seen  \(Display.timeWithSeconds(tx.firstSeenAt, zone))")
                if let applied = tx.rule1AppliedAt { Output.line("auto-allocated at \(Display.timeWithSeconds(applied, zone))") }
            }
        }
    }
}

/// The amount argument of `tx add`, collected unconditionally so that `-20` is not an option.
enum AmountArgument {
    static func single(_ values: [String]) throws -> String {
        let values = values.filter { $0 != "--" }
        guard let first = values.first else { throw ValidationError("missing the amount, e.g. 250.50 or -20") }
        guard values.count == 1 else {
            let extra = values.dropFirst().first!
            throw ValidationError(extra.hasPrefix("--") ? "unknown option '\(extra)'" : "unexpected argument '\(extra)'")
        }
        return first
    }
}

/// The transaction table of `tx list` (and the views' latest transactions).
enum TransactionTable {
    static func render(_ listings: [TransactionListing], zone: TimeZone) -> [String] {
        var table = TextTable([.init("DATE"), .init("ASSET"), .init("AMOUNT", .right), .init("VALUE", .right), .init("STATUS"),
                               .init("TYPE"), .init("TXID"), .init("TAGS")])
        for listing in listings {
            let tx = listing.transaction
            table.add([Display.time(tx.date, zone), listing.assetName, Display.readable(listing.money.minorUnits, listing.money.currency), valueText(listing), tx.status.rawValue,
                       tx.type.rawValue, tx.txid, listing.tags.joined(separator: ", ")])
        }
        return table.render()
    }

    /// The value in the display currency at the transaction's date, "no rate for ETH/USD"
    /// without one.
    static func valueText(_ listing: TransactionListing) -> String {
        guard let value = listing.value else { return "" }
        return value.money.map { Display.readable($0.minorUnits, $0.currency) }
            ?? Display.noRate(for: [CurrencyPair(base: listing.currency, quote: value.currency)])
    }
}
