import Logging
import Testing
import TestSupport
import WalletWatchBitcoin
import WalletWatchNet
import WalletWatchSim
@testable import WalletWatchSources

/// arkd's indexer read page by page over real HTTP from the simulator's arkd face: every VTXO
/// once, whatever the page size, and a repeated page refused in one line.
@Suite struct ArkdClientPagingTests {
    static let key = Hex.decode("79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798")!

    static func client(_ simulator: Simulator) -> ArkdClient {
        let http = CurlHTTPClient(configuration: HTTPClientConfiguration(connectTimeout: .seconds(10), timeout: .seconds(30), retries: 0,
                                                                         userAgent: "walletwatch-test"),
                                  logger: Logger(label: "test"))
        return ArkdClient(source: "ark-watch", baseURL: simulator.arkdURL, http: http)
    }

    @Test(arguments: [1, 2, 3, 7, 500])
    func everyVTXOIsReadOnceWhateverThePageSize(pageSize: Int) async throws {
        let simulator = try await Simulator.start(scenario: Scenario(arkade: ArkadeScenario(network: "bitcoin")))
        defer { Task { await simulator.stop() } }
        let watched = await simulator.arkadeAddress(ofKey: Self.key)
        var outpoints: Set<String> = []
        for amount in 1...7 { outpoints.insert(try await simulator.arkadeReceive(address: watched, amount: Int64(amount) * 1_000)) }
        let found = try await Self.client(simulator).vtxos(scripts: [try ArkAddress(watched).vtxoScriptHex], pageSize: pageSize)
        #expect(found.count == 7)
        #expect(Set(found.map(\.outpoint)) == outpoints)
        #expect(found.map(\.amount).reduce(0, +) == 28_000)
    }

    @Test func aRepeatedPageIsRefusedInOneLine() async throws {
        let simulator = try await Simulator.start(scenario: Scenario(arkade: ArkadeScenario(network: "bitcoin")))
        defer { Task { await simulator.stop() } }
        let watched = await simulator.arkadeAddress(ofKey: Self.key)
        for amount in 1...4 { try await simulator.arkadeReceive(address: watched, amount: Int64(amount) * 1_000) }
        await simulator.setArkadeFault(ArkadeFault(.pageRepeats, times: 1))
        let error = try await #require(throws: SourceError.self) {
            try await Self.client(simulator).vtxos(scripts: [try ArkAddress(watched).vtxoScriptHex], pageSize: 2)
        }
        #expect(error.description.hasPrefix("source 'ark-watch': GET \(simulator.arkdURL)/v1/indexer/vtxos?"), "\(error)")
        #expect(error.description.contains("is on page 1 and again on page 2") && !error.description.contains("\n"), "\(error)")
    }
}
