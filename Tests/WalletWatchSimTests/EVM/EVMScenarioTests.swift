import Foundation
import Testing
@testable import WalletWatchSim

/// EVM scenarios load from JSON as from Swift, refuse what cannot be, and generate the benchmark's chain.
@Suite struct EVMScenarioTests {
    static let json = """
        {"now": "2026-01-01T00:01:48Z", "evm": {
          "chain_id": 1, "native": "ETH", "block_time": 12, "finality_depth": 2, "tip_height": 9, "genesis_time": "2026-01-01T00:00:00Z",
          "accounts": [{"name": "alice"}, {"name": "bob"}, {"name": "carol"}],
          "tokens": [{"symbol": "USDC", "name": "USD Coin", "decimals": 6}, {"symbol": "DAI", "name": "Dai Stablecoin", "decimals": 18}],
          "transactions": [
            {"type": "transfer", "to": "alice", "value": "5000000000000000000"},
            {"type": "transfer", "to": "bob", "value": "0xde0b6b3a7640000"},
            {"type": "mint", "token": "USDC", "to": "alice", "amount": 1000000000},
            {"type": "token_transfer", "token": "USDC", "from": "alice", "to": "bob", "amount": 2000000},
            {"type": "token_transfer", "token": "USDC", "from": "bob", "to": "alice", "amount": 9000000},
            {"type": "internal", "from": "bob", "to": "alice", "value": 123},
            {"type": "mint", "token": "DAI", "to": "bob", "amount": "1000000000000000000000000"},
            {"type": "transfer", "to": "carol", "value": "12345678901234567891", "block": 7},
            {"type": "transfer", "from": "alice", "to": "bob", "value": 1000, "pending": true}
          ]}}
        """

    /// The JSON scenario and the Swift one (EVMFixture) serve the same chain, byte for byte.
    @Test func jsonAndSwiftScenariosServeTheSameChain() async throws {
        let decoded = try Scenario.decode(Data(Self.json.utf8))
        let calls = (0...9).map { #"{"jsonrpc":"2.0","id":1,"method":"eth_getBlockByNumber","params":["\#(EVMHex.quantity($0))",true]}"# }
        var served: [[[UInt8]]] = []
        for scenario in [decoded, EVMFixture.simulator(), try Scenario.decode(try EVMFixture.simulator().jsonData())] {
            served.append(try await Fixture.withSimulator(scenario) { sim in
                var bodies: [[UInt8]] = []
                for call in calls { bodies.append(try await EVMFixture.post(sim, Array(call.utf8)).body) }
                return bodies
            })
        }
        #expect(served[0] == served[1] && served[1] == served[2])
        #expect(served[0].count == 10 && served[0].allSatisfy { !$0.isEmpty })
    }

    @Test func impossibleScenariosAreRefusedSayingWhere() throws {
        func refusal(_ evm: EVMScenario) -> String {
            do {
                _ = try SimulatorState(scenario: Scenario(evm: evm))
                return "accepted"
            } catch {
                return "\(error)"
            }
        }
        let accounts = [EVMAccountSpec(name: "alice"), EVMAccountSpec(name: "bob")]
        #expect(refusal(EVMScenario(accounts: accounts, transactions: [EVMTransactionSpec(.transfer, to: "nobody", value: 1)]))
                    .contains("evm.transactions[0] (block 1): to nobody is neither a name of the scenario nor an address"))
        #expect(refusal(EVMScenario(accounts: accounts, transactions: [EVMTransactionSpec(.transfer, from: "alice", to: "bob", value: 1)]))
                    .contains("insufficient funds for gas * price + value"))
        #expect(refusal(EVMScenario(accounts: accounts, transactions: [
            EVMTransactionSpec(.transfer, to: "alice", value: 1, block: 5), EVMTransactionSpec(.transfer, to: "bob", value: 1, block: 3),
        ])).contains("evm.transactions[1]: block 3 comes before block 5"))
        #expect(refusal(EVMScenario(tipHeight: 2, accounts: accounts, transactions: [EVMTransactionSpec(.transfer, to: "alice", value: 1, block: 4)]))
                    .contains("tip_height 2 is below block 4"))
        #expect(refusal(EVMScenario(accounts: accounts + [EVMAccountSpec(name: "alice")])).contains("already names alice"))
        #expect(refusal(EVMScenario(tokens: [EVMTokenSpec(symbol: "X", decimals: 300)])).contains("decimals must be 0...255"))
        #expect(refusal(EVMScenario(accounts: accounts, transactions: [EVMTransactionSpec(.mint, to: "alice", amount: 1, token: "USDC")]))
                    .contains("token USDC is neither a name of the scenario nor an address"))
        #expect(refusal(EVMScenario(chainID: 0)).contains("chain_id must be >= 1"))
        let badAmount = #"{"evm": {"transactions": [{"type": "transfer", "to": "0x0000000000000000000000000000000000000001", "value": "1.5"}]}}"#
        #expect(throws: SimulatorError.self) { try Scenario.decode(Data(badAmount.utf8)) }
        let badType = #"{"evm": {"transactions": [{"type": "swap"}]}}"#
        #expect(throws: SimulatorError.self) { try Scenario.decode(Data(badType.utf8)) }
    }

    /// The demo's wallet: ether and USDC received, a USDC payment, one that reverted, ether through
    /// a contract, a spend not yet final and a payment waiting.
    @Test func theDemoScenariosWalletHoldsWhatItsTransactionsSay() async throws {
        let scenario = try Scenario.load(from: ScenarioTests.demoPath)
        let state = try SimulatorState(scenario: scenario)
        let chain = try #require(await state.evm?.chain)
        let savings = try #require(EVMAddress("0x5a0b54d5dc17e0aadc383d2db43b0a0d3e029c4c"))
        let usdc = try #require(EVMAddress("0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48"))
        #expect(chain.resolve("savings") == savings && chain.tip == 40 && chain.finalized == 38)
        #expect(chain.tokenBalance(usdc, of: savings, at: chain.tip) == 4_880_000_000)
        let reverted = try #require(chain.block(26).transactions.first)
        #expect(reverted.status == 0 && reverted.transaction.from == savings)
        #expect(chain.block(30).transactions.first?.internalOperations.first?.to == savings)
        let spent = try #require(chain.block(39).transactions.first)
        let paidFees = chain.transactions(in: 0...40).filter { $0.transaction.from == savings }.reduce(Int128(0)) { $0 + $1.fee }
        #expect(chain.balance(of: savings, at: 40) == 1_500_000_000_000_000_000 + 250_000_000_000_000_000 - 100_000_000_000_000_000 - paidFees)
        #expect(chain.balance(of: savings, at: chain.finalized) == chain.balance(of: savings, at: 40) + 100_000_000_000_000_000 + spent.fee)
        #expect(chain.mempool.count == 1)
    }

    /// A genesis allocation is a balance that no transaction explains, there from block 0.
    @Test func accountsMayHoldCoinsFromGenesis() async throws {
        let state = try SimulatorState(scenario: Scenario(evm: EVMScenario(tipHeight: 3, accounts: [EVMAccountSpec(name: "rich", balance: 77)])))
        let chain = try #require(await state.evm?.chain)
        let rich = try #require(chain.resolve("rich"))
        #expect(chain.balance(of: rich, at: 0) == 77 && chain.balance(of: rich, at: 3) == 77 && chain.tip == 3)
        #expect(chain.balance(of: EVMChain.faucetAddress, at: 0) == 1_000_000 * EVMFixture.ether)
    }

    /// The benchmark's chain: 2 watched addresses and 3 tokens over 2,000 transactions, each
    /// account's figures what the generation rule gives by hand.
    @Test func theBenchmarksChainIsGeneratedAsSpecified() async throws {
        let started = ContinuousClock.now
        let chain = try EVMChain(scenario: EVMScenario(generated: EVMGeneratedHistory(transactions: 2_000, perBlock: 20)),
                                 referenceTime: Scenario.defaultReferenceTime)
        print("EVMScenarioTests: the benchmark's chain of 2,000 transactions was built in \(ContinuousClock.now - started) (not a check: a debug build)")
        #expect(chain.tip == 102 && chain.transactions(in: 3...102).reduce(0) { count, _ in count + 1 } == 2_000)
        #expect(chain.transactions(in: 0...102).allSatisfy { $0.status == 1 })
        let people = EVMGeneratedHistory.people.map { chain.resolve($0)! }
        // Token units by hand: each token minted 10^30 to each; transfer i (i % 10 in 4...8) moves
        // 10^6 + i of token i % 3 from person i % 3 to person (i + 1) % 3.
        for (tokenIndex, token) in EVMGeneratedHistory.tokens.enumerated() {
            let address = chain.resolve(token.0)!
            for (personIndex, person) in people.enumerated() {
                var expected = EVMGeneratedHistory.mintAmount
                for i in 0..<2_000 where (4...8).contains(i % 10) && i % 3 == tokenIndex {
                    if i % 3 == personIndex { expected -= 1_000_000 + Int128(i) }
                    if (i + 1) % 3 == personIndex { expected += 1_000_000 + Int128(i) }
                }
                #expect(chain.tokenBalance(address, of: person, at: chain.tip) == expected, "\(token.0) of \(EVMGeneratedHistory.people[personIndex])")
            }
        }
        // Native coin: 1,000 ether each, plus what came in, minus what went out and every fee paid.
        for (personIndex, person) in people.enumerated() {
            var expected = 1_000 * EVMGeneratedHistory.ether
            for i in 0..<2_000 where i % 10 < 4 || i % 10 == 9 {
                let value = i % 10 < 4 ? 1_000_000_000_000_000 + Int128(i) : 1_000_000_000_000 + Int128(i)
                if i % 3 == personIndex { expected -= value }
                if (i + 1) % 3 == personIndex { expected += value }
            }
            let fees = chain.transactions(in: 0...102).filter { $0.transaction.from == person }.reduce(Int128(0)) { $0 + $1.fee }
            #expect(chain.balance(of: person, at: chain.tip) == expected - fees)
            #expect(chain.nonce(of: person, at: chain.tip) == (0..<2_000).filter { $0 % 3 == personIndex }.count)
        }
    }
}
