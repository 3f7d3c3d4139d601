import ArgumentParser
import Foundation
import WalletWatchCore
import WalletWatchEngine
import WalletWatchPresentation

struct InitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Write a commented starter config and create the database.",
        discussion: """
            Writes the config to --config, else $WALLETWATCH_CONFIG, else \
            ~/.config/walletwatch/walletwatch.toml (mode 0600). An existing config is kept as it \
            is. Then creates the database the config names (mode 0600).

            Examples:
              walletwatch init
              walletwatch init --config ./walletwatch.toml
            """)

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        let located = ConfigLoader.locate(explicit: global.config)
        let path = located.path
        if FileManager.default.fileExists(atPath: path) {
            Output.line("kept the existing config \(path)")
        } else {
            try Self.writePrivately(StarterConfig.text, to: path)
            Output.line("wrote the starter config \(path)")
        }
        var options = global
        options.config = path
        let context = try CommandContext.load(options)
        Output.line("database ready at \(context.config.database)")
        Output.line("next: add a wallet in one command, e.g. walletwatch source add cold --kind esplora --url https://mempool.space/api --xpub XPUB")
        Output.line("  (or edit the config's [[sources]] by hand; a manual asset: walletwatch asset add Cash --currency USD)")
    }

    /// Creates `path` (and its folder, mode 0700) with mode 0600 before writing to it.
    static func writePrivately(_ text: String, to path: String) throws {
        let folder = (path as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw ConfigError(file: path, message: "cannot create its folder: \(error.localizedDescription)")
        }
        let descriptor = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw ConfigError(file: path, message: "cannot be created: \(String(cString: strerror(errno)))")
        }
        do {
            try PrivateFile.fill(descriptor, with: text, path: path)
        } catch {
            // Created just now (O_EXCL), so it is ours to remove: a half-written config would be
            // kept as it is by the next `init`.
            unlink(path)
            throw error
        }
    }
}
