import ArgumentParser
import WalletWatchCore

/// `--config` and `--db`, accepted by every command.
struct GlobalOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "The config file (default: $WALLETWATCH_CONFIG, else ./walletwatch.toml, else ~/.config/walletwatch/walletwatch.toml).",
        valueName: "path"))
    var config: String?

    @Option(name: .long, help: ArgumentHelp("The database file, overriding the config's `database`.", valueName: "path"))
    var db: String?

    static let names: Set<String> = ["--config", "--db"]

    /// Moves `--config`/`--db` given before the command name to where ArgumentParser expects
    /// them (after it), so `walletwatch --config x.toml tx list` works like
    /// `walletwatch tx list --config x.toml`.
    static func hoist(_ arguments: [String]) -> [String] {
        var leading: [String] = []
        var rest = arguments[...]
        while let first = rest.first, first.hasPrefix("-") {
            let name = String(first.split(separator: "=", maxSplits: 1)[0])
            guard names.contains(name) else { break }
            leading.append(first)
            rest = rest.dropFirst()
            if !first.contains("="), let value = rest.first {
                leading.append(value)
                rest = rest.dropFirst()
            }
        }
        guard !leading.isEmpty, !rest.isEmpty else { return arguments }
        var result = Array(rest)
        // Keep them before a `--` so they are not taken as positional values.
        let insertAt = result.firstIndex(of: "--") ?? result.endIndex
        result.insert(contentsOf: leading, at: insertAt)
        return result
    }
}

/// `--json`, accepted by every command that prints data.
struct JSONOption: ParsableArguments {
    @Flag(name: .long, help: "Print exactly one JSON document on stdout (amounts in minor units, times in UTC).")
    var json = false
}
