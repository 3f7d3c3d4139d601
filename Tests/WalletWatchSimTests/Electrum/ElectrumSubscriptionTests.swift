import Foundation
import TestSupport
import Testing
import WalletWatchBitcoin
@testable import WalletWatchSim

/// Subscriptions: a subscribed script is told its new status whenever it changes (a mempool
/// payment, a block, an RBF replacement, an eviction, a reorg), and a headers subscription is told
/// of each new tip, also when a reorg replaces it.
@Suite struct ElectrumSubscriptionTests {
    static let address = ChainFixture.p2wpkh

    /// The next notification of `scripthash`, its status.
    static func status(_ client: ElectrumTestClient) async throws -> String? {
        let params = try #require(try await client.notification("blockchain.scripthash.subscribe"))
        #expect(params.first as? String == ChainFixture.scripthash(address))
        return params.last as? String
    }

    @Test func paymentsBlocksReplacementsEvictionsAndReorgs() async throws {
        try await ChainFixture.withFace(ChainFixture.scenario(tip: 150)) { sim, client in
            let scripthash = ChainFixture.scripthash(Self.address)
            let mined = try await sim.pay(Self.address, value: 40_000, height: 140)
            #expect(try await client.result("blockchain.scripthash.subscribe", [scripthash]) as? String == ChainFixture.status([(mined.txid, 140)]))
            let tip = try #require(try await client.result("blockchain.headers.subscribe") as? [String: Any])
            #expect(tip["height"] as? Int == 150)

            // A payment enters the mempool.
            let pending = try await sim.pay(Self.address, value: 5_000)
            #expect(try await Self.status(client) == ChainFixture.status([(mined.txid, 140), (pending.txid, 0)]))

            // It is replaced: the replacement takes its place.
            let (replacement, evicted) = try await sim.replace(pending.txid, fee: pending.fee + 500)
            #expect(evicted == [pending.txid])
            #expect(try await Self.status(client) == ChainFixture.status([(mined.txid, 140), (replacement.txid, 0)]))
            #expect(replacement.inputs.map(\.txid) == pending.inputs.map(\.txid) && replacement.fee == pending.fee + 500)

            // A block mines it: a new header, and the script's new status.
            #expect(try await sim.mine() == [replacement.txid])
            let header = try #require(try await client.notification("blockchain.headers.subscribe")?.first as? [String: Any])
            #expect(header["height"] as? Int == 151)
            #expect(try await Self.status(client) == ChainFixture.status([(mined.txid, 140), (replacement.txid, 151)]))

            // Evicted: another mempool payment, then gone.
            let doomed = try await sim.pay(Self.address, value: 6_000)
            #expect(try await Self.status(client) == ChainFixture.status([(mined.txid, 140), (replacement.txid, 151), (doomed.txid, 0)]))
            #expect(try await sim.evictEsploraTransaction(doomed.txid) == [doomed.txid])
            #expect(try await Self.status(client) == ChainFixture.status([(mined.txid, 140), (replacement.txid, 151)]))

            // A reorg replaces blocks 150 and 151 with three new ones: the replacement is back in
            // the mempool, and the new tip (152) has a new hash.
            let oldTip = header["hex"] as? String
            let reorg = try await sim.reorg(depth: 2)
            #expect(reorg.forkHeight == 150 && reorg.tipHeight == 152 && reorg.transactions == [replacement.txid])
            let newTip = try #require(try await client.notification("blockchain.headers.subscribe")?.first as? [String: Any])
            #expect(newTip["height"] as? Int == 152 && newTip["hex"] as? String != oldTip)
            #expect(try await Self.status(client) == ChainFixture.status([(mined.txid, 140), (replacement.txid, 0)]))
            let rebuilt = try #require(try await client.result("blockchain.block.header", [151]) as? String)
            #expect(rebuilt != oldTip)

            // A reorg that mines its transactions again moves them to the new tip.
            _ = try await sim.mine()
            #expect(try await Self.status(client) == ChainFixture.status([(mined.txid, 140), (replacement.txid, 153)]))
            let again = try await sim.reorg(depth: 1, transactions: .mine)
            #expect(again.tipHeight == 154)
            #expect(try await Self.status(client) == ChainFixture.status([(mined.txid, 140), (replacement.txid, 154)]))
            // Dropping them: gone with the blocks.
            _ = try await sim.reorg(depth: 1, transactions: .drop)
            #expect(try await Self.status(client) == ChainFixture.status([(mined.txid, 140)]))
        }
    }

    @Test func unsubscribedAndUnchangedScriptsAreNotNotified() async throws {
        try await ChainFixture.withFace(ChainFixture.scenario(tip: 150)) { sim, client in
            let scripthash = ChainFixture.scripthash(Self.address)
            _ = try await client.result("blockchain.scripthash.subscribe", [scripthash])
            // Another script's payment changes nothing of this one.
            _ = try await sim.pay(ChainFixture.p2pkh, value: 9_000)
            #expect(try await client.notification("blockchain.scripthash.subscribe", within: .milliseconds(300)) == nil)
            #expect(try await client.result("blockchain.scripthash.unsubscribe", [scripthash]) as? Bool == true)
            _ = try await sim.pay(Self.address, value: 9_000)
            #expect(try await client.notification("blockchain.scripthash.subscribe", within: .milliseconds(300)) == nil)
            // No headers subscription: no header notification.
            _ = try await sim.mine()
            #expect(try await client.notification("blockchain.headers.subscribe", within: .milliseconds(300)) == nil)
        }
    }
}
