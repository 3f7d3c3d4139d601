import Foundation
import Testing
import TestSupport
import WalletWatchBitcoin
import WalletWatchSim

/// Issue 26's reproductions that took the process down, through the built binary: a raw
/// transaction whose outputs overflowed a trapping sum (SIGILL, exit 132; under systemd a
/// crash loop), and a pass that never ends, during which `run` logged SIGTERM and went on.
@Suite("CLI: a hostile Electrum server neither crashes walletwatch nor keeps the daemon running", .serialized)
struct ElectrumHostileCLITests {
    static func receiveAddress(_ index: UInt32) throws -> String {
        let wallet = try HDWallet(descriptors: RegtestWallet.descriptors, xpub: nil, network: .regtest)
        return try #require(try wallet.derive(chain: .receive, indexes: index..<index + 1).first).address
    }

    @Test("two outputs of 2^62 sat to the wallet: ingest and run refuse the transaction in one line and exit as usual, never 132")
    func hugeOutputs() async throws {
        let node = try await ElectrumCLITests.Node()
        node.configure(url: node.simulator.electrumTCPURL)
        #expect(try await node.cli().run("ingest").status == 0)
        try await node.simulator.addElectrumFault(.forgedPayment(address: try Self.receiveAddress(3), value: 1 << 62, outputs: 2), on: "*")
        let result = try await node.cli("2026-11-21T12:05:00Z").run("ingest")
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("pays 4611686018427387904 sat in output 0, more than the 21 million BTC that can exist"), "\(result.stderr)")
        #expect(try await sqlite(node.folder.file("walletwatch.sqlite"), "SELECT COUNT(*) FROM transactions WHERE amount > 2100000000000000") == "0")

        // The daemon meets the same transaction on every pass: it logs the failure and stays up.
        let cli = node.cli("2026-11-21T12:06:00Z")
        let daemon = try BackgroundProcess(cli.binary, ["run"], environment: cli.environment, currentDirectory: node.folder.path)
        defer { daemon.send(SIGKILL) }
        #expect(await eventually(within: .seconds(30)) { daemon.stderr.contains("more than the 21 million BTC") }, "\(daemon.stderr)")
        #expect(daemon.isRunning)
        daemon.send(SIGTERM)
        #expect(await daemon.exitStatus(within: .seconds(15)) == 0, "\(daemon.stderr)")
    }

    @Test("SIGTERM during a pass that would not end (every address called used): run stops within seconds, nothing of the pass stored")
    func sigtermCancelsThePass() async throws {
        let node = try await ElectrumCLITests.Node()
        // A limit no pass reaches here: only SIGTERM ends it.
        node.configure(url: node.simulator.electrumTCPURL, source: "max_addresses_per_pass = 10000000")
        #expect(try await node.cli().run("ingest").status == 0)
        let database = node.folder.file("walletwatch.sqlite")
        let stored = try await sqlite(database, "SELECT COUNT(*) FROM derived_addresses")
        try await node.simulator.addElectrumFault(.everyScriptUsed, on: "blockchain.scripthash.*")
        let cli = node.cli("2026-11-21T12:05:00Z")
        let daemon = try BackgroundProcess(cli.binary, ["run"], environment: cli.environment, currentDirectory: node.folder.path)
        defer { daemon.send(SIGKILL) }
        // The pass is well past anything a wallet needs: thousands of subscriptions.
        #expect(await eventually(within: .seconds(60)) {
            await node.simulator.electrumRequests().filter { $0.method == "blockchain.scripthash.subscribe" }.count > 3000
        }, "\(daemon.stderr)")
        daemon.send(SIGTERM)
        #expect(await daemon.exitStatus(within: .seconds(15)) == 0, "\(daemon.stderr)")
        #expect(daemon.stderr.contains("pass cancelled: the daemon is stopping"), "\(daemon.stderr)")
        #expect(try await sqlite(database, "SELECT COUNT(*) FROM derived_addresses") == stored, "nothing of the cancelled pass")
        #expect(try await sqlite(database, "SELECT COUNT(*) FROM ingest_passes") == "0", "its claim given up")
    }
}
