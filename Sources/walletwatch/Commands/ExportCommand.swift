import ArgumentParser
import Foundation
import WalletWatchCore
import WalletWatchEngine
import WalletWatchPresentation

struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export the ledger, the allocation history or closed months as files.",
        subcommands: [CSVFile.self])

    struct CSVFile: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "csv",
            abstract: "Export as CSV (RFC 4180) for spreadsheets and databases.",
            discussion: """
                --what transactions (the default) exports every transaction, oldest first, with \
                its tags (comma-separated in one field), its amount and fee in major units and the \
                currency beside them. --what allocations exports every allocation-history row \
                (asset, goal, target, reason). --what months exports every closed month's frozen \
                figures, one row per goal.

                Dates are ISO 8601 in UTC. A header line names the columns; lines end with CRLF; \
                fields with commas, quotes or line breaks are quoted. A cell a spreadsheet would \
                run as a formula (starting with =, +, -, @, a tab or a carriage return: a note, \
                a tag, a name) gets a leading ' so that it opens as text; plain numbers such as \
                -0.015 stay numbers. Without FILE the CSV goes to stdout; a FILE is created \
                readable by you only (mode 0600). A write that fails (a full disk, a closed \
                pipe) is an error (exit 1), never a silently truncated file.

                Examples:
                  walletwatch export csv transactions.csv
                  walletwatch export csv --what allocations > allocations.csv
                  sqlite3 ledger.db ".import --csv transactions.csv transactions"
                """)

        @OptionGroup var global: GlobalOptions
        @Option(help: "transactions, allocations or months.") var what = "transactions"
        @Argument(help: "Where to write (default: stdout).") var file: String?

        func run() async throws {
            guard let kind = CSVExportKind(rawValue: what) else {
                throw UsageError("--what '\(what)' is not accepted; use \(CSVExportKind.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            let (text, rows) = try CommandContext.load(global).engine.reports.exportCSV(kind)
            guard let file else {
                Output.data(text)
                return
            }
            try PrivateFile.write(text, to: file)
            Output.standardError("exported \(rows) \(kind.rawValue) row(s) to \(file)")
        }
    }
}
