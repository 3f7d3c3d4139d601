import Foundation
import TOMLKit
import WalletWatchBitcoin
import WalletWatchCore
import WalletWatchNet

/// A problem with the config file: names the file, the key, and what is accepted.
public struct ConfigError: Classified, Equatable {
    public let file: String
    public let message: String
    /// A config that cannot be read is a runtime failure (exit 1); one that asks for something
    /// walletwatch refuses to do (an onion host without a proxy) is refused input (exit 65).
    public let kind: ErrorKind

    public init(file: String, message: String, kind: ErrorKind = .runtime) {
        self.file = file
        self.message = message
        self.kind = kind
    }

    public var description: String { "config \(file): \(message)" }
}

/// Finds and reads `walletwatch.toml`.
public enum ConfigLoader {
    /// The file name looked for in the current folder and under `~/.config/walletwatch/`.
    public static let fileName = "walletwatch.toml"
    /// The environment variable that names the config file.
    public static let environmentKey = "WALLETWATCH_CONFIG"

    /// Where the config is looked for, in order: `--config`, `$WALLETWATCH_CONFIG`,
    /// `./walletwatch.toml`, `~/.config/walletwatch/walletwatch.toml` (`$XDG_CONFIG_HOME` honoured).
    /// Returns the chosen path and whether the user named it explicitly.
    public static func locate(
        explicit: String?, environment: [String: String] = ProcessInfo.processInfo.environment,
        currentDirectory: String = FileManager.default.currentDirectoryPath
    ) -> (path: String, explicit: Bool) {
        if let explicit { return (absolute(explicit, relativeTo: currentDirectory), true) }
        if let fromEnvironment = environment[environmentKey], !fromEnvironment.isEmpty {
            return (absolute(fromEnvironment, relativeTo: currentDirectory), true)
        }
        let local = absolute(fileName, relativeTo: currentDirectory)
        if FileManager.default.fileExists(atPath: local) { return (local, false) }
        return (userConfigPath(environment: environment), false)
    }

    /// `~/.config/walletwatch/walletwatch.toml`, or under `$XDG_CONFIG_HOME` when set.
    public static func userConfigPath(environment: [String: String]) -> String {
        let base = environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? ((environment["HOME"] ?? NSHomeDirectory()) + "/.config")
        return base + "/walletwatch/" + fileName
    }

    /// Reads and validates the config at `path`.
    public static func load(path: String) throws(ConfigError) -> AppConfig {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw ConfigError(file: path, message: "cannot be read (\(error.localizedDescription)); create one with `walletwatch init`")
        }
        return try parse(text, file: path)
    }

    /// Parses config text; relative paths are resolved against the folder of `file`.
    public static func parse(_ text: String, file: String) throws(ConfigError) -> AppConfig {
        let root: TOMLTable
        do {
            root = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            throw ConfigError(file: file, message: "line \(error.source.begin.line), column \(error.source.begin.column): \(error.description)")
        } catch {
            throw ConfigError(file: file, message: "is not valid TOML (\(error))")
        }
        let folder = (file as NSString).deletingLastPathComponent
        var reader = TableReader(table: root, path: "", file: file)
        do {
            let database = try reader.string("database") ?? "walletwatch.sqlite"
            var config = AppConfig(file: file, database: absolute(database, relativeTo: folder))
            config.balanceCacheSeconds = try reader.int("balance_cache_seconds", in: 0...86_400) ?? 300
            if let zone = try reader.string("time_zone") {
                guard TimeZone(identifier: zone) != nil else {
                    throw reader.error("time_zone", "'\(zone)' is not a time zone; use an IANA name such as Europe/Berlin or UTC")
                }
                config.timeZone = zone
            }
            config.sources = try reader.tables("sources").map { try source($0, folder: folder) }
            var seen: Set<String> = []
            for (index, source) in config.sources.enumerated() where !seen.insert(source.name).inserted {
                throw ConfigError(file: file, message: "sources[\(index + 1)].name '\(source.name)' is used twice; each source needs its own name")
            }
            if var rates = try reader.table("rates") {
                config.rates = try self.rates(&rates)
            }
            if var http = try reader.table("http") {
                config.http = HTTPConfig(
                    timeoutSeconds: try http.int("timeout_seconds", in: 1...3600) ?? 20,
                    maxResponseBytes: try http.int("max_response_bytes", in: 1024...(1 << 40)) ?? 67_108_864,
                    retries: try http.int("retries", in: 0...10) ?? 3,
                    concurrency: try http.int("concurrency", in: 1...32) ?? 4,
                    routing: NetworkRouting(proxy: try http.proxy().flatMap { $0.isEmpty ? nil : $0 },
                                            noProxy: try http.string("no_proxy") ?? NetworkRouting.defaultNoProxy))
                try http.rejectUnknownKeys()
            }
            if var serve = try reader.table("serve") {
                let listen = try serve.string("listen") ?? "127.0.0.1:8477"
                guard ListenAddress(listen) != nil else {
                    throw serve.error("listen", "'\(listen)' is not host:port; write it like 127.0.0.1:8477")
                }
                config.serve = ServeConfig(
                    listen: listen,
                    tokenFile: try serve.string("token_file").map { absolute($0, relativeTo: folder) })
                try serve.rejectUnknownKeys()
            }
            if var backup = try reader.table("backup") {
                config.backup = BackupConfig(
                    folder: try backup.string("folder").map { absolute($0, relativeTo: folder) },
                    everyHours: try backup.int("every_hours", in: 0...8760) ?? 0,
                    keep: try backup.int("keep", in: 1...10_000) ?? 7)
                try backup.rejectUnknownKeys()
            }
            config.notify = try reader.tables("notify").map { try notifyTarget($0, folder: folder) }
            var targets: Set<String> = []
            for (index, target) in config.notify.enumerated() where !targets.insert(target.name).inserted {
                throw ConfigError(file: file, message: "notify[\(index + 1)].name '\(target.name)' is used twice; each [[notify]] entry needs its own name")
            }
            try reader.rejectUnknownKeys()
            try refuseOnionsWithoutProxy(config)
            return config
        } catch let error as ConfigError {
            throw error
        } catch {
            throw ConfigError(file: file, message: String(describing: error))
        }
    }

    private static func source(_ reader: TableReader, folder: String) throws -> SourceConfig {
        var reader = reader
        guard let name = try reader.string("name") else { throw reader.error("name", "is missing; every source needs a unique name") }
        guard !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) }) else {
            throw reader.error("name", "'\(name)' is not accepted; use letters, digits, '-', '_' or '.' (it becomes part of Ark txids)")
        }
        let kindText = try reader.string("kind") ?? ""
        guard let kind = SourceConfig.Kind(rawValue: kindText) else {
            let accepted = "use \"barkd\", \"esplora\", \"electrum\", \"evm\", \"fulmine\" or \"arkd\""
            throw reader.error("kind", kindText.isEmpty ? "is missing; \(accepted)" : "'\(kindText)' is not accepted; \(accepted)")
        }
        let network = try self.network(&reader, kind: kind)
        var urlSecret: SecretReference? = nil
        if kind == .evm {
            let urlFile = try reader.string("url_file")
            let urlEnv = try reader.string("url_env")
            if urlFile != nil && urlEnv != nil { throw reader.error("url_file", "and url_env are both set; use one of them") }
            urlSecret = urlFile.map { .file(absolute($0, relativeTo: folder)) } ?? urlEnv.map { .environment($0) }
            if urlSecret != nil, try reader.string("url") != nil {
                throw reader.error("url", "and \(urlFile != nil ? "url_file" : "url_env") are both set; use one of them")
            }
        }
        guard var url = try reader.string("url") ?? (urlSecret != nil ? "http://127.0.0.1/" : nil) else {
            throw reader.error("url", kind == .electrum ? "is missing; give the server as ssl://HOST:PORT or tcp://HOST:PORT"
                                                        : "is missing; give the base URL, e.g. http://127.0.0.1:3000")
        }
        if kind == .electrum {
            url = try electrumURL(url, network: network, reader)
        } else {
            guard let parsed = URL(string: url), let scheme = parsed.scheme?.lowercased(), ["http", "https"].contains(scheme),
                  parsed.host != nil
            else {
                throw reader.error("url", "'\(URLRedaction.redact(url))' is not accepted; use an http:// or https:// URL")
            }
        }
        var evm: EVMSourceConfig? = nil
        if kind == .evm {
            evm = try self.evm(&reader, name: name, folder: folder)
            evm?.urlSecret = urlSecret
        }
        let defaultInterval = evm.map { config in EVMChain.allCases.first { $0.chainID == config.chainID }?.defaultInterval ?? 2 } ?? Self.defaultInterval(kind)
        let interval = try reader.int("interval_seconds", in: 1...86_400) ?? defaultInterval
        var source = SourceConfig(name: name, kind: kind, url: url, network: network, intervalSeconds: interval)
        source.evm = evm
        source.proxy = try reader.proxy()
        switch kind {
        case .barkd:
            let tokenFile = try reader.string("token_file")
            let tokenEnv = try reader.string("token_env")
            if tokenFile != nil && tokenEnv != nil {
                throw reader.error("token_file", "and token_env are both set; use one of them")
            }
            source.token = tokenFile.map { .file(absolute($0, relativeTo: folder)) } ?? tokenEnv.map { .environment($0) }
            source.arkAsset = try reader.assetName("ark_asset") ?? name
            source.onchainAsset = try reader.assetName("onchain_asset")
        case .esplora, .electrum:
            source.asset = try reader.assetName("asset") ?? name
            try walletAddresses(&reader, into: &source)
            if kind == .electrum { source.certificateSHA256 = try certificatePin(&reader, url: url) }
        case .evm:
            source.asset = source.evm?.nativeAsset
        case .fulmine:
            source.asset = try reader.assetName("asset") ?? name
        case .arkd:
            source.asset = try reader.assetName("asset") ?? name
            try arkAddresses(&reader, into: &source)
        }
        try reader.rejectUnknownKeys()
        return source
    }

    /// How often the daemon ingests a source unless `interval_seconds` says otherwise: an
    /// electrum source is pushed its changes, so its interval is only a safety net.
    static func defaultInterval(_ kind: SourceConfig.Kind) -> Int {
        switch kind {
        case .barkd, .fulmine: 60
        case .esplora: 600
        case .electrum: 3600
        case .evm: 12
        // Pushed its changes by the subscription stream: the interval is a safety net.
        case .arkd: 600
        }
    }

    /// `network` of an on-chain or arkd source (default bitcoin); barkd and fulmine sources
    /// have none (the daemon knows its network).
    private static func network(_ reader: inout TableReader, kind: SourceConfig.Kind) throws -> Network {
        guard kind != .barkd, kind != .evm, kind != .fulmine else { return .bitcoin }
        let networkText = try reader.string("network") ?? Network.bitcoin.rawValue
        guard let network = Network(rawValue: networkText) else {
            throw reader.error("network", "'\(networkText)' is not accepted; use \(Network.allCases.map { "\"\($0)\"" }.joined(separator: ", "))")
        }
        return network
    }

    private static func rates(_ reader: inout TableReader) throws -> RatesConfig {
        let providerText = try reader.string("provider") ?? "coingecko"
        guard let provider = RatesConfig.Provider(rawValue: providerText) else {
            throw reader.error("provider", "'\(providerText)' is not accepted; use coingecko, mempool or static")
        }
        let url = try reader.string("url")
        if let url, URL(string: url)?.scheme.map({ ["http", "https"].contains($0.lowercased()) }) != true {
            throw reader.error("url", "'\(URLRedaction.redact(url))' is not accepted; use an http:// or https:// URL")
        }
        let coingeckoURL = try reader.string("coingecko_url")
        if let coingeckoURL, URL(string: coingeckoURL)?.scheme.map({ ["http", "https"].contains($0.lowercased()) }) != true {
            throw reader.error("coingecko_url", "'\(coingeckoURL)' is not accepted; use an http:// or https:// URL, such as \(RatesConfig.defaultURL(.coingecko))")
        }
        var currencies: [Currency] = [.usd, .eur]
        if let codes = try reader.strings("currencies") {
            currencies = try codes.map { code in
                do { return try Currency(code: code) } catch { throw reader.error("currencies", "\(error)") }
            }
        }
        var staticRates: [CurrencyPair: Decimal] = [:]
        if var table = try reader.table("static") {
            for key in table.keys {
                guard let pair = CurrencyPair(key) else {
                    throw table.error(key, "is not a currency pair; write it like \"BTC/USD\" = \"65000.00\"")
                }
                let text = try table.numberText(key)
                guard let rate = Decimal(string: text), rate > 0 else {
                    throw table.error(key, "'\(text)' is not a positive rate; write it like \"65000.00\"")
                }
                staticRates[pair] = rate
            }
        }
        if provider == .static && staticRates.isEmpty {
            throw reader.error("static", "is missing; the static provider needs rates such as [rates.static] \"BTC/USD\" = \"65000.00\"")
        }
        let config = RatesConfig(
            provider: provider, url: url, coingeckoURL: coingeckoURL, currencies: currencies,
            maxAgeSeconds: try reader.int("max_age_seconds", in: 1...31_536_000) ?? 300, staticRates: staticRates)
        try reader.rejectUnknownKeys()
        return config
    }

    /// `path` made absolute against `folder`, with a leading `~` expanded.
    public static func absolute(_ path: String, relativeTo folder: String) -> String {
        let expanded = (path as NSString).expandingTildeInPath
        if expanded.hasPrefix("/") { return (expanded as NSString).standardizingPath }
        return ((folder as NSString).appendingPathComponent(expanded) as NSString).standardizingPath
    }
}

/// Reads typed values from one TOML table, remembering which keys were used so that unknown
/// (misspelt) keys can be reported instead of silently ignored.
struct TableReader {
    let table: TOMLTable
    /// The table's place in the file, e.g. `sources[2]` or `rates`; empty for the top level.
    let path: String
    let file: String
    private var used: Set<String> = []

    init(table: TOMLTable, path: String, file: String) {
        self.table = table
        self.path = path
        self.file = file
    }

    var keys: [String] { table.keys }

    func error(_ key: String, _ message: String) -> ConfigError {
        ConfigError(file: file, message: "\(path.isEmpty ? key : "\(path).\(key)") \(message)")
    }

    private mutating func value(_ key: String) -> (any TOMLValueConvertible)? {
        used.insert(key)
        return table[key]
    }

    mutating func string(_ key: String) throws -> String? {
        guard let value = value(key) else { return nil }
        guard let string = value.string else { throw error(key, "must be a string (in quotes)") }
        return string
    }

    /// `proxy`: nil when absent (the `[http] proxy` applies), `""` for none, else a proxy URL.
    mutating func proxy() throws -> String? {
        guard let text = try string("proxy") else { return nil }
        guard text.isEmpty || NetworkRouting.isProxyURL(text) else {
            throw error("proxy", "'\(URLRedaction.redact(text))' is not accepted; use a proxy URL such as \"socks5h://127.0.0.1:9050\" (Tor), or \"\" for none")
        }
        return text
    }

    mutating func assetName(_ key: String) throws -> String? {
        guard let name = try string(key) else { return nil }
        do { return try Name.validated(name, what: "asset") } catch { throw self.error(key, error.description) }
    }

    mutating func int(_ key: String, in range: ClosedRange<Int>) throws -> Int? {
        guard let value = value(key) else { return nil }
        guard value.type == .int, let number = value.int else { throw error(key, "must be a whole number") }
        guard range.contains(number) else {
            throw error(key, "is \(number); accepted: \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }

    /// A rate written as a string (`"65000.00"`, exact) or as a TOML number.
    mutating func numberText(_ key: String) throws -> String {
        guard let value = value(key) else { throw error(key, "is missing") }
        switch value.type {
        case .string: return value.string!
        case .int: return String(value.int!)
        case .double: return String(value.double!)
        default: throw error(key, "must be a number in quotes, like \"65000.00\"")
        }
    }

    /// The value of `key` as it is, marked used (a key of several accepted types).
    mutating func rawValue(_ key: String) -> (any TOMLValueConvertible)? { value(key) }

    /// The elements of an array (empty when absent).
    mutating func array(_ key: String) throws -> [any TOMLValueConvertible] {
        guard let value = value(key) else { return [] }
        guard let array = value.array else { throw error(key, "must be a list, like [\"USDC\", { contract = \"0x...\", currency = \"CODE\" }]") }
        return Array(array)
    }

    mutating func strings(_ key: String) throws -> [String]? {
        guard let value = value(key) else { return nil }
        guard let array = value.array else { throw error(key, "must be a list of strings, like [\"a\", \"b\"]") }
        return try array.map { element in
            guard let string = element.string else { throw error(key, "must be a list of strings, like [\"a\", \"b\"]") }
            return string
        }
    }

    mutating func table(_ key: String) throws -> TableReader? {
        guard let value = value(key) else { return nil }
        guard let table = value.table else { throw error(key, "must be a table ([\(key)])") }
        return TableReader(table: table, path: path.isEmpty ? key : "\(path).\(key)", file: file)
    }

    /// The tables of an array of tables (`[[sources]]`), numbered from 1 in messages.
    mutating func tables(_ key: String) throws -> [TableReader] {
        guard let value = value(key) else { return [] }
        guard let array = value.array else { throw error(key, "must be written as [[\(key)]] tables") }
        return try array.enumerated().map { index, element in
            guard let table = element.table else { throw error(key, "must be written as [[\(key)]] tables") }
            return TableReader(table: table, path: "\(key)[\(index + 1)]", file: file)
        }
    }

    func rejectUnknownKeys() throws {
        if let unknown = table.keys.sorted().first(where: { !used.contains($0) }) {
            throw error(unknown, "is not a known key; see the example config in the README")
        }
    }
}

/// A `host:port` pair to listen on.
public struct ListenAddress: Sendable, Equatable, CustomStringConvertible {
    public let host: String
    public let port: Int

    public init?(_ text: String) {
        guard let colon = text.lastIndex(of: ":") else { return nil }
        var host = String(text[..<colon])
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty, let port = Int(text[text.index(after: colon)...]), (0...65535).contains(port) else {
            return nil
        }
        self.host = host
        self.port = port
    }

    /// True for an IP literal in 127.0.0.0/8, for ::1, and for localhost: only this machine can
    /// connect. A host name is never taken for loopback by its spelling (`127.box.lan` may
    /// resolve to any address).
    public var isLoopback: Bool {
        if host == "localhost" { return true }
        var ipv4 = in_addr()
        if inet_pton(AF_INET, host, &ipv4) == 1 {
            return UInt32(bigEndian: ipv4.s_addr) >> 24 == 127
        }
        var ipv6 = in6_addr()
        if inet_pton(AF_INET6, host, &ipv6) == 1 {
            return withUnsafeBytes(of: &ipv6) { bytes in bytes.dropLast().allSatisfy { $0 == 0 } && bytes.last == 1 }
        }
        return false
    }

    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}
