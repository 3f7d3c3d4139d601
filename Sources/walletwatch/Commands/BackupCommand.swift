import ArgumentParser
import WalletWatchCore
import WalletWatchEngine
import WalletWatchPresentation

struct BackupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Copy the database consistently, also while the daemon writes.",
        discussion: """
            The copy is taken through SQLite's online backup as one snapshot: a daemon ingesting \
            meanwhile neither waits for it nor shows up half in it. The copy is written beside its \
            destination (NAME.partial), checked with SQLite's integrity check, and only then \
            given its name, readable by you only (mode 0600); a copy that fails the check is an \
            error, never a backup. A backup killed midway leaves its NAME.partial (and journal); \
            the next backup into that folder removes them, and [backup] keep counts finished \
            backups only.

            Without PATH the backup goes into [backup] folder (default: backups beside the \
            database) as walletwatch-<UTC time>.sqlite, and the folder keeps the newest \
            [backup] keep (default 7): older backups there are removed. With a folder as PATH \
            it goes there under the same kind of name; with a file name, there (an existing file \
            only with --replace). `run` and `serve` make backups on [backup] every_hours.

            To restore: stop the daemon, run `walletwatch --db BACKUP check`, copy the backup \
            over the database, remove the database's -wal and -shm files, and start again.

            Examples:
              walletwatch backup
              walletwatch backup /mnt/usb/walletwatch.sqlite --json
            """)

    @OptionGroup var global: GlobalOptions
    @Argument(help: ArgumentHelp("Where to write the copy: a new file, or a folder (default: [backup] folder).", valueName: "path"))
    var path: String?
    @Flag(help: "Overwrite an existing file at PATH.") var replace = false
    @OptionGroup var output: JSONOption

    func run() async throws {
        let context = try CommandContext.load(global)
        let made = try await context.engine.backups.make(to: path, replace: replace)
        if output.json {
            Output.json(MaintenanceDocument.backup(made))
            return
        }
        Output.line("backed up to \(made.path) (\(made.bytes) bytes, integrity \(made.integrity))")
        for removed in made.removed { Output.line("removed the older backup \(removed)") }
    }
}
