import Foundation
import Testing
import TestSupport

/// Help texts are written as paragraphs without hard line breaks, so that ArgumentParser wraps
/// them to the terminal: a line break inside a sentence shows up as a ragged break at every
/// width but the author's.
@Suite("CLI: help texts")
struct HelpCLITests {
    func help(_ path: [String], columns: Int) async throws -> String {
        let folder = TemporaryDirectory("walletwatch-help")
        let result = try await CLIRunner(folder: folder).run(path + ["--help"], extraEnvironment: ["COLUMNS": "\(columns)"])
        #expect(result.status == 0, "\(path): \(result.stderr)")
        return result.stdout
    }

    /// Every command, found through the SUBCOMMANDS lists from the root down, with its help at
    /// 1000 columns (the text the lists were read from, so that each command is run once).
    func allCommands() async throws -> [(path: [String], help: String)] {
        var found: [(path: [String], help: String)] = []
        var queue: [[String]] = [[]]
        while let path = queue.first {
            queue.removeFirst()
            let text = try await help(path, columns: 1000)
            found.append((path, text))
            guard let start = text.range(of: "\nSUBCOMMANDS:\n") else { continue }
            for line in text[start.upperBound...].split(separator: "\n", omittingEmptySubsequences: false) {
                guard line.hasPrefix("  ") else { break }
                let name = String(line.split(separator: " ")[0])
                if name != "help" { queue.append(path + [name]) }
            }
        }
        return found
    }

    @Test("every command's help: no paragraph breaks a line mid-sentence, and every example fits 80 columns")
    func paragraphs() async throws {
        let found = try await allCommands()
        let commands = found.map(\.path)
        #expect(commands.count > 40, "\(commands)")
        for command in ["backup", "check", "doctor"] { #expect(commands.contains([command])) }
        for (path, help) in found {
            // Wide enough that ArgumentParser wraps nothing: every line break left is the text's own.
            let lines = help.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            let overview = lines.prefix { !$0.hasPrefix("USAGE:") }
            for (line, next) in zip(overview, overview.dropFirst()) {
                let prose = !line.isEmpty && !line.hasPrefix(" ")
                let continues = !next.isEmpty && !next.hasPrefix(" ")
                #expect(!(prose && continues), "walletwatch \(path.joined(separator: " ")): a line break inside a paragraph after '\(line.suffix(40))'")
                if line.hasPrefix(" ") {
                    #expect(line.count < 80, "walletwatch \(path.joined(separator: " ")): an example wider than 80 columns: \(line)")
                }
            }
        }
    }

    @Test("at 80 columns the overview wraps between words only: 'a local SQLite database', 'savings goals, and shows'")
    func eightyColumns() async throws {
        let text = try await help([], columns: 80)
        #expect(text.split(separator: "\n").allSatisfy { $0.count <= 80 })
        let words = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(words.contains("into a local SQLite database, lets you tag transactions"))
        #expect(!text.contains("local\nSQLite") && !text.contains("goals,\nand shows"), "\(text)")
        // A paragraph is filled: only its last line may be short.
        let overview = text.split(separator: "\n", omittingEmptySubsequences: false).prefix { !$0.hasPrefix("USAGE:") }
        for (line, next) in zip(overview, overview.dropFirst()) where !line.isEmpty && !next.isEmpty && !line.hasPrefix(" ") && !next.hasPrefix(" ") {
            let firstWord = next.split(separator: " ").first.map(String.init) ?? ""
            #expect(line.count + 1 + firstWord.count > 80, "a line ends before the terminal's edge: '\(line)'")
        }
    }

    @Test("shell completions come from the same definitions: bash's script parses and offers every command")
    func completions() async throws {
        let folder = TemporaryDirectory("walletwatch-completions")
        for shell in ["bash", "zsh", "fish"] {
            let result = try await CLIRunner(folder: folder).run("--generate-completion-script", shell)
            #expect(result.status == 0, "\(shell): \(result.stderr)")
            #expect(result.stdout.contains("backup") && result.stdout.contains("doctor"), "\(shell)")
        }
        let bash = try await CLIRunner(folder: folder).run("--generate-completion-script", "bash")
        let script = folder.write("walletwatch.bash", bash.stdout)
        let syntax = try await ProcessRunner.run("/bin/bash", ["-n", script], environment: [:], currentDirectory: folder.path)
        #expect(syntax.status == 0, "\(syntax.stderr)")
        #expect(bash.stdout.contains("compgen -W 'init source ingest balance asset tx goal allocate tag rates currency settings month saving-plan report export run serve watch backup check doctor notify help'"))
    }
}
