import ArgumentParser
import Foundation
import WalletWatchSim

/// `walletwatch-sim`: serves a scenario's barkd wallets, Esplora chain and prices on one
/// loopback port (and a real chain's Electrum face on two more) until SIGINT or SIGTERM.
@main
struct WalletWatchSimCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "walletwatch-sim",
        abstract: "Simulates barkd, Esplora, Electrum, Bitcoin Core RPC, an EVM chain and price APIs, for walletwatch's tests and demos.",
        discussion: """
            Prints one line, `walletwatch-sim listening on http://HOST:PORT`, then serves until \
            SIGINT or SIGTERM. APIs: /barkd/<wallet>/api/v1/..., /esplora/..., \
            /coingecko/api/v3/simple/price, /mempool/api/v1/prices; tests steer it through /control/....

            A scenario with an `evm` section is an EVM chain served as Ethereum JSON-RPC (with \
            Otterscan's ots_ namespace) at POST /evm, as Etherscan's API V2 at \
            /etherscan/v2/api and as Blockscout's API at /blockscout/api; /control/evm/... \
            sends transactions, mines, reorgs and injects faults.

            A scenario with a `bitcoin` section ({"network": "regtest"}) is a real chain of blocks \
            from the regtest genesis block, also served by an Electrum server (newline-delimited \
            JSON-RPC, protocol 1.4 to 1.6) on --electrum-tcp-port and, with a self-signed \
            certificate made at start, --electrum-tls-port, and by a Bitcoin Core JSON-RPC face \
            at /bitcoind/ (basic auth: bitcoin.rpc_user/rpc_password) that ElectrumX can index. \
            Then it prints a second line, `walletwatch-sim electrum on tcp://HOST:PORT and \
            ssl://HOST:PORT, certificate sha256 HEX`; --endpoints-file writes all of it as JSON \
            (http, electrum_tcp, electrum_tls, their ports, certificate_sha256, certificate_path, \
            key_path, core_rpc, core_rpc_user, core_rpc_password, network, genesis_hash), the \
            same as GET /control/electrum.
            """)

    @Option(help: "The scenario, a JSON file (see Config/demo-scenario.json).")
    var scenario: String

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on; 0 picks a free one.")
    var port = 0

    @Option(name: .customLong("port-file"), help: "Write the bound port to this file (atomically).")
    var portFile: String?

    @Option(name: .customLong("electrum-tcp-port"), help: "A real chain's Electrum port without TLS; 0 picks a free one.")
    var electrumTCPPort = 0

    @Option(name: .customLong("electrum-tls-port"), help: "A real chain's Electrum port with TLS; 0 picks a free one.")
    var electrumTLSPort = 0

    @Option(name: .customLong("tls-dir"),
            help: "Write the Electrum face's certificate and key (electrum-certificate.pem, electrum-key.pem) here; default: a temporary folder removed at exit.")
    var tlsDirectory: String?

    @Option(name: .customLong("endpoints-file"),
            help: "Write a real chain's endpoints (Electrum URLs and ports, certificate fingerprint and files, Core RPC URL) to this JSON file (atomically).")
    var endpointsFile: String?

    @Flag(help: "Log every request to stderr.")
    var verbose = false

    func validate() throws {
        for (name, value) in [("--port", port), ("--electrum-tcp-port", electrumTCPPort), ("--electrum-tls-port", electrumTLSPort)] {
            guard (0...65535).contains(value) else { throw ValidationError("\(name) must be 0...65535") }
        }
    }

    func run() async throws {
        let loaded: Scenario
        do {
            loaded = try Scenario.load(from: scenario)
        } catch {
            FileHandle.standardError.write(Data("walletwatch-sim: \(error)\n".utf8))
            throw ExitCode(65)
        }
        let signals = SignalStream(SIGINT, SIGTERM)
        let verbose = verbose
        let simulator: Simulator
        do {
            simulator = try await Simulator.start(
                scenario: loaded, host: host, port: port, electrumTCPPort: electrumTCPPort, electrumTLSPort: electrumTLSPort,
                tlsDirectory: tlsDirectory
            ) { record in
                guard verbose else { return }
                let query = record.query.map { "?" + $0 } ?? ""
                let fault = record.fault.map { " [fault: \($0)]" } ?? ""
                FileHandle.standardError.write(Data("\(record.time) \(record.method) \(record.path)\(query)\(fault)\n".utf8))
            }
        } catch {
            FileHandle.standardError.write(Data("walletwatch-sim: \(error)\n".utf8))
            throw ExitCode(1)
        }
        if let portFile {
            try PortFile.write(simulator.port, to: portFile)
        }
        if let endpointsFile {
            guard let endpoints = simulator.endpoints else {
                FileHandle.standardError.write(Data("walletwatch-sim: --endpoints-file needs a scenario with a bitcoin section\n".utf8))
                await simulator.stop()
                throw ExitCode(64)
            }
            try PortFile.write(json: endpoints, to: endpointsFile)
        }
        // Unbuffered, so a parent reading our stdout through a pipe sees the line at once.
        FileHandle.standardOutput.write(Data("walletwatch-sim listening on \(simulator.baseURL)\n".utf8))
        if let endpoints = simulator.endpoints {
            let line = "walletwatch-sim electrum on \(endpoints.electrumTCP) and \(endpoints.electrumTLS), certificate sha256 \(endpoints.certificateSHA256)\n"
            FileHandle.standardOutput.write(Data(line.utf8))
        }

        let received = await signals.next()
        if verbose, let received {
            FileHandle.standardError.write(Data("walletwatch-sim: signal \(received), stopping\n".utf8))
        }
        await simulator.stop()
        if let portFile { try? FileManager.default.removeItem(atPath: portFile) }
        if let endpointsFile { try? FileManager.default.removeItem(atPath: endpointsFile) }
    }
}

/// Delivers SIGINT/SIGTERM as values instead of letting them kill the process, so the
/// simulator can close its connections and remove its port file first.
final class SignalStream {
    private let sources: [any DispatchSourceSignal]
    private let stream: AsyncStream<Int32>

    init(_ signals: Int32...) {
        let (stream, continuation) = AsyncStream<Int32>.makeStream()
        self.stream = stream
        sources = signals.map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { continuation.yield(number) }
            source.resume()
            return source
        }
    }

    /// The next signal received.
    func next() async -> Int32? {
        var iterator = stream.makeAsyncIterator()
        return await iterator.next()
    }
}
