import ArgumentParser
import Foundation
import WalletWatchSim

/// `walletwatch-sim`: serves a scenario's barkd wallets, Esplora chain and prices on one
/// loopback port until SIGINT or SIGTERM.
@main
struct WalletWatchSimCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "walletwatch-sim",
        abstract: "Simulates barkd, Esplora and price APIs on one port, for walletwatch's tests and demos.",
        discussion: """
            Prints one line, `walletwatch-sim listening on http://HOST:PORT`, then serves until \
            SIGINT or SIGTERM. APIs: /barkd/<wallet>/api/v1/..., /esplora/..., \
            /coingecko/api/v3/simple/price, /mempool/api/v1/prices; tests steer it through /control/....
            """)

    @Option(help: "The scenario, a JSON file (see Config/demo-scenario.json).")
    var scenario: String

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on; 0 picks a free one.")
    var port = 0

    @Option(name: .customLong("port-file"), help: "Write the bound port to this file (atomically).")
    var portFile: String?

    @Flag(help: "Log every request to stderr.")
    var verbose = false

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0...65535") }
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
            simulator = try await Simulator.start(scenario: loaded, host: host, port: port) { record in
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
        // Unbuffered, so a parent reading our stdout through a pipe sees the line at once.
        FileHandle.standardOutput.write(Data("walletwatch-sim listening on \(simulator.baseURL)\n".utf8))

        let received = await signals.next()
        if verbose, let received {
            FileHandle.standardError.write(Data("walletwatch-sim: signal \(received), stopping\n".utf8))
        }
        await simulator.stop()
        if let portFile { try? FileManager.default.removeItem(atPath: portFile) }
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
