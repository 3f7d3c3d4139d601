import Foundation
import Logging
import WalletWatchBitcoin
import WalletWatchCore
import WalletWatchNet
import WalletWatchStore

/// A server certificate this system does not trust (a node's self-signed one, usually), put to
/// the user before it is pinned.
public struct UntrustedCertificate: Sendable, Hashable {
    /// The source being added.
    public let source: String
    /// `ssl://HOST:PORT`.
    public let server: String
    /// Its SHA-256.
    public let pin: CertificatePin
}

/// Asks the user whether to pin an untrusted certificate (trust on first use). Nil where nobody
/// can be asked (no terminal): the certificate is then refused, never trusted by default.
public typealias CertificateTrust = @Sendable (UntrustedCertificate) async -> Bool

/// A source `source add` could not add: its server does not answer as it should, or its
/// certificate is not trusted. Nothing was written.
public struct SourceSetupFailure: Classified, Equatable {
    public let message: String
    public var description: String { message }
    public var kind: ErrorKind { .runtime }
}

/// What `source add` is about to write, checked and probed: the new config bytes, the
/// sources they add (as the config loader reads them), and what was learnt on the way.
public struct SourcePlan: Sendable {
    /// The config file.
    public let file: String
    /// The file's bytes when they were read: the write replaces exactly these.
    let original: [UInt8]
    /// The same bytes with the new blocks appended.
    let updated: [UInt8]
    /// The config with the new sources, as the loader reads the updated bytes (with `--db`'s
    /// database when it was given).
    public let config: AppConfig
    /// The sources added: one, or one per script type of a bare xpub.
    public let added: [SourceConfig]
    /// A bare xpub's script types: which were tried and which were kept; nil otherwise.
    public let scriptTypes: ScriptTypeScan?
    /// The certificate the user chose to trust on first use; nil when none was asked about.
    public let trustedCertificate: CertificatePin?
    /// The doctor's check of each added source, all passed.
    public let checks: [DoctorCheck]
}

/// `walletwatch source add`, `list` and `remove` (SPEC.md section 28): a source in one command.
///
/// Adding checks what it was given with the config loader itself (the new block appended to
/// the file's text and the whole text read back: checksums, networks, private keys refused,
/// and a kind only when the loader knows it), asks the server what the doctor asks, then
/// appends the block to the file, leaving every byte already there as it was, and writes it
/// atomically. Nothing is written until every check passed.
public struct SourceSetup: Sendable {
    let database: AppDatabase
    let config: AppConfig
    let clock: WallClock
    let clients: SourceClients
    let doctor: Doctor
    let logger: Logger

    init(database: AppDatabase, config: AppConfig, clock: WallClock, clients: SourceClients, doctor: Doctor, logger: Logger) {
        self.database = database
        self.config = config
        self.clock = clock
        self.clients = clients
        self.doctor = doctor
        self.logger = logger
    }

    /// Checks `request`, probes its server and returns what to write; writes nothing. An
    /// electrum server whose certificate the system does not trust is put to `trust` (nil: no
    /// terminal, refused with the `--pin` flag that would pin it).
    public func prepare(_ request: SourceRequest, trust: CertificateTrust?) async throws -> SourcePlan {
        let (file, original, base) = try readConfig()
        guard base.source(named: request.name) == nil else {
            throw Refusal("a source named '\(request.name)' is already in \(file); choose another name, or remove that one first: walletwatch source remove \(request.name)")
        }
        let folder = (file as NSString).deletingLastPathComponent
        var blocks = [try request.block(configFolder: folder, date: clock.now.day)]
        var loaded = try load(blocks, onto: original, base: base, file: file, request: request)

        var trusted: CertificatePin?
        if let source = loaded.added.first, source.kind == .electrum, source.certificateSHA256 == nil,
           let pin = await untrustedCertificate(source) {
            let certificate = UntrustedCertificate(source: source.name, server: source.url, pin: pin)
            guard let trust else { throw Self.untrusted(certificate, asked: false) }
            guard await trust(certificate) else { throw Self.untrusted(certificate, asked: true) }
            trusted = pin
            blocks = blocks.map { $0.setting("certificate_sha256", .string(pin.hex)) }
            loaded = try load(blocks, onto: original, base: base, file: file, request: request)
        }

        var scan: ScriptTypeScan?
        if let source = loaded.added.first, let xpub = Self.bareXpub(request, source) {
            let found = try await scanScriptTypes(source, xpub: xpub)
            scan = found
            blocks = try Self.blocks(blocks[0], for: found, request: request, existing: base)
            loaded = try load(blocks, onto: original, base: base, file: file, request: request)
        }

        var checks: [DoctorCheck] = []
        for source in loaded.added {
            let check = await doctor.check(source)
            guard check.ok else {
                throw SourceSetupFailure(message: "source '\(source.name)' does not answer as it should, so nothing was written to \(file): \(check.detail)")
            }
            checks.append(check)
        }
        var config = loaded.config
        config.database = self.config.database
        return SourcePlan(file: file, original: original, updated: loaded.bytes, config: config, added: loaded.added, scriptTypes: scan,
                          trustedCertificate: trusted, checks: checks)
    }

    /// Writes the plan's config: the old bytes, then the new blocks, atomically, with the file's
    /// mode kept. Refused when the file changed since it was read.
    public func write(_ plan: SourcePlan) throws {
        try ConfigFileWriter.replace(plan.file, expected: plan.original, with: plan.updated)
    }

    /// The first pass over the plan's sources, read from the written config.
    public func firstPass(_ plan: SourcePlan) async -> [IngestReport] {
        let ingestor = Ingestor(database: database, config: plan.config, clock: clock, clients: clients, logger: logger)
        var reports: [IngestReport] = []
        for source in plan.added { reports.append(await ingestor.ingest(source, full: false)) }
        return reports
    }

    /// The names of the stored assets each of `sources` feeds, by source.
    public func assetNames(of sources: [String]) throws -> [String: [String]] {
        let wanted = Set(sources)
        return Dictionary(grouping: try database.assets().filter { $0.source.map(wanted.contains) == true }, by: { $0.source! })
            .mapValues { $0.map(\.name) }
    }

    // MARK: - Reading and checking the config

    /// The config file, its bytes and what the loader reads in them now (`--db` aside).
    func readConfig() throws -> (file: String, bytes: [UInt8], config: AppConfig) {
        guard let file = config.file else {
            throw Refusal("there is no config file to write the source to (walletwatch runs with --db only): run `walletwatch init`, or pass --config")
        }
        guard let data = FileManager.default.contents(atPath: file) else {
            throw ConfigWriteError(file: file, reason: "cannot be read (\(String(cString: strerror(errno))))")
        }
        let bytes = Array(data)
        guard let text = String(bytes: bytes, encoding: .utf8) else {
            throw ConfigError(file: file, message: "is not UTF-8 text")
        }
        return (file, bytes, try ConfigLoader.parse(text, file: file))
    }

    /// What the loader reads once `blocks` are appended to `original`.
    struct Loaded {
        let bytes: [UInt8]
        let config: AppConfig
        let added: [SourceConfig]
    }

    /// Appends `blocks` to `original` and reads the whole text with the config loader: a
    /// refusal names the flag that gave the refused key. The result must be `base` with the new
    /// sources after its own and nothing else changed, else it is refused too.
    func load(_ blocks: [SourceBlock], onto original: [UInt8], base: AppConfig, file: String, request: SourceRequest) throws -> Loaded {
        let bytes = ConfigText(original).appending(blocks.map(\.text).joined(separator: "\n"))
        let parsed: AppConfig
        do {
            parsed = try ConfigLoader.parse(String(decoding: bytes, as: UTF8.self), file: file)
        } catch {
            throw Refusal(Self.explain(error, firstNew: base.sources.count + 1, request: request) + "; nothing was written")
        }
        let added = Array(parsed.sources.dropFirst(base.sources.count))
        var expected = base
        expected.sources += added
        guard added.count == blocks.count, parsed == expected else {
            throw Refusal("appending the source to \(file) would change more than the new source (is its last table unfinished?); nothing was written: add the block by hand")
        }
        return Loaded(bytes: bytes, config: parsed, added: added)
    }

    /// The loader's refusal of a new block in the words of the command line: `sources[N].xpub`
    /// becomes `--xpub`, an unknown key the flag that does not apply to the kind.
    static func explain(_ error: ConfigError, firstNew: Int, request: SourceRequest) -> String {
        let message = error.message
        guard message.hasPrefix("sources["), let close = message.firstIndex(of: "]"),
              let index = Int(message[message.index(message.startIndex, offsetBy: 8)..<close]), index >= firstNew,
              message[message.index(after: close)...].hasPrefix(".")
        else { return message }
        let afterKey = message[message.index(close, offsetBy: 2)...]
        // `sources[3].addresses: 0x5aAe... fails its EIP-55 checksum`: the key ends at the colon.
        let key = String(afterKey.prefix { $0 != " " && $0 != ":" })
        let rest = afterKey.dropFirst(key.count)
        switch key {
        case "name": return "source name\(rest)"
        case "kind": return "--kind\(rest)"
        default:
            guard let flag = request.flag(forKey: key) else { return "\(key)\(rest)" }
            if rest.hasPrefix(" is not a known key") {
                return "\(flag.spelled) does not apply to a source of kind \(request.kind) (it has no `\(key)`)"
            }
            return "\(flag.spelled)\(rest)"
        }
    }

    // MARK: - The certificate

    /// The SHA-256 of an ssl:// server's certificate when this system does not trust it; nil
    /// when it does, for a tcp:// server, or when the server cannot be reached (the doctor's
    /// check then says why).
    func untrustedCertificate(_ source: SourceConfig) async -> CertificatePin? {
        let connector = clients.electrum(source)
        guard case .tls(pin: .none) = connector.endpoint.security else { return nil }
        do {
            let stream = try await CurlStream.connect(to: connector.endpoint,
                                                      configuration: StreamConfiguration(connectTimeout: connector.connectTimeout, route: connector.route))
            stream.close()
            return nil
        } catch let error as NetError where error.kind == .tls {
            return error.certificateSHA256
        } catch {
            return nil
        }
    }

    /// The refusal of an untrusted certificate: without a terminal it gives the `--pin` flag to
    /// run the command again with, once the fingerprint is checked against the node.
    static func untrusted(_ certificate: UntrustedCertificate, asked: Bool) -> SourceSetupFailure {
        let shown = "\(certificate.server) presents a certificate this system does not trust (SHA-256 \(certificate.pin.colonSeparated))"
        guard !asked else { return SourceSetupFailure(message: "\(shown), and it was not trusted; nothing was written") }
        return SourceSetupFailure(message: "\(shown); nothing was written. If it is your node's own certificate (compare the fingerprint with the one the node shows), run the command again with --pin \(certificate.pin.hex)")
    }
}
