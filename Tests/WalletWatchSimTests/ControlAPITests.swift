import Foundation
import Testing
@testable import WalletWatchSim

/// The control API over HTTP changes what the simulated APIs serve, and emits notifications.
@Suite struct ControlAPITests {
    @Test func movementsAddedAndUpdatedShowUpWithNotifications() async throws {
        try await Fixture.withSimulator(Scenario(wallets: [Fixture.arkWallet()])) { sim in
            let control = sim.controlURL + "/barkd/ark"
            let added = try await HTTPProbe.control("POST", control + "/movements", json: """
                {"status":"pending","subsystem":{"name":"bark.lightning_receive","kind":"receive"},
                 "effective_balance_sat":25000,"time":{"created_at":"2026-11-21T11:00:00Z"}}
                """)
            #expect(added.status == 201)
            #expect(added.object?["id"] as? Int == 4)
            let updated = try await HTTPProbe.control("PATCH", control + "/movements/4", json: """
                {"status":"successful","effective_balance_sat":24900,"offchain_fee_sat":100,"updated_at":"2026-11-21T11:05:00Z"}
                """)
            #expect(updated.status == 200)
            let history = try #require(try await HTTPProbe.get(sim.barkdURL("ark") + "/api/v1/history", token: "t").array)
            let newest = try #require(history.first)
            #expect(newest["id"] as? Int == 4 && newest["status"] as? String == "successful")
            #expect(newest["effective_balance_sat"] as? Int == 24_900)
            #expect((newest["time"] as? [String: Any])?["completed_at"] as? String == "2026-11-21T11:05:00Z")

            let wait = try #require(try await HTTPProbe.get(sim.barkdURL("ark") + "/api/v1/notifications/wait", token: "t").object)
            let notifications = try #require(wait["notifications"] as? [[String: Any]])
            #expect(notifications.compactMap { $0["type"] as? String } == ["movement-created", "movement-updated"])
            #expect((notifications[1]["movement"] as? [String: Any])?["status"] as? String == "successful")
            #expect(wait["last_pushed_at"] is String)

            #expect(try await HTTPProbe.control("PATCH", control + "/movements/99", json: "{}").status == 404)
            #expect(try await HTTPProbe.control("POST", control + "/movements", json: #"{"id":4,"subsystem":{"name":"bark.arkoor","kind":"send"},"effective_balance_sat":-1,"time":{"created_at":"2026-11-21T11:00:00Z"}}"#).status == 409)
            let bad = try await HTTPProbe.control("POST", control + "/movements", json: #"{"subsystem":{}}"#)
            #expect(bad.status == 400)
            #expect((bad.object?["error"] as? String)?.contains("missing field") == true, "\(bad.text)")
            #expect(try await HTTPProbe.control("POST", sim.controlURL + "/barkd/nobody/movements", json: added.text).status == 404)
        }
    }

    @Test func walletFiguresCanBeSet() async throws {
        try await Fixture.withSimulator(Scenario(wallets: [Fixture.arkWallet(token: nil)])) { sim in
            let control = sim.controlURL + "/barkd/ark"
            let api = sim.barkdURL("ark") + "/api/v1"
            #expect(try await HTTPProbe.control("PUT", control + "/balance", json: #"{"spendable_sat":7,"pending_in_round_sat":3}"#).status == 200)
            let balance = try #require(try await HTTPProbe.get(api + "/wallet/balance").object)
            #expect(balance["spendable_sat"] as? Int == 7 && balance["pending_in_round_sat"] as? Int == 3)
            _ = try await HTTPProbe.control("PUT", control + "/onchain-balance", json: #"{"confirmed_sat":1000,"trusted_pending_sat":10}"#)
            let onchain = try #require(try await HTTPProbe.get(api + "/onchain/balance").object)
            #expect(onchain["total_sat"] as? Int == 1_010 && onchain["trusted_spendable_sat"] as? Int == 1_010)
            _ = try await HTTPProbe.control("PUT", control + "/tip", json: #"{"tip_height":870123}"#)
            #expect(try await HTTPProbe.get(api + "/bitcoin/tip").text == #"{"tip_height":870123}"#)
            _ = try await HTTPProbe.control("PUT", sim.controlURL + "/chain/tip", json: #"{"tip_height":870500}"#)
            #expect(try await HTTPProbe.get(sim.esploraURL + "/blocks/tip/height").text == "870500")
            #expect(try await HTTPProbe.get(api + "/bitcoin/tip").text == #"{"tip_height":870123}"#, "own tip wins")
            _ = try await HTTPProbe.control("PUT", control + "/vtxos", json: """
                [{"id":"\(Fixture.txid(9)):0","amount_sat":5000,"expiry_height":870200,"state":{"type":"locked","movement_id":2}}]
                """)
            let vtxos = try #require(try await HTTPProbe.get(api + "/wallet/vtxos").array)
            #expect(vtxos.count == 1 && (vtxos[0]["state"] as? [String: Any])?["movement_id"] as? Int == 2)
            _ = try await HTTPProbe.control("PUT", control + "/utxos", json: #"[{"outpoint":"\#(Fixture.txid(9)):1","amount_sat":777}]"#)
            let utxos = try #require(try await HTTPProbe.get(api + "/onchain/utxos").array)
            #expect(utxos.count == 1 && utxos[0]["confirmation_height"] is NSNull)

            let txid = Fixture.txid(0xC0FFEE)
            #expect(try await HTTPProbe.control("POST", control + "/onchain-transactions", json: #"{"txid":"\#(txid)","balance_change_sat":-3000,"onchain_fee_sat":200}"#).status == 201)
            var transactions = try #require(try await HTTPProbe.get(api + "/onchain/transactions").array)
            #expect(transactions.last?["txid"] as? String == txid && transactions.last?["confirmation"] is NSNull)
            _ = try await HTTPProbe.control("POST", control + "/onchain-transactions/\(txid)/confirm", json: #"{"height":870501}"#)
            transactions = try #require(try await HTTPProbe.get(api + "/onchain/transactions").array)
            let confirmed = try #require(transactions.first { $0["txid"] as? String == txid })
            #expect((confirmed["confirmation"] as? [String: Any])?["height"] as? Int == 870_501)
            #expect(transactions.last?["confirmation"] is NSNull, "unconfirmed stay last")
        }
    }

    @Test func derivedBalancesFollowTheMovementsAndTransactions() async throws {
        let wallet = WalletScenario(name: "w", movements: [
            BarkdMovement(id: 1, subsystem: .board, effectiveBalanceSat: 100_000, time: .completed(at: Fixture.now)),
            BarkdMovement(id: 2, status: .pending, subsystem: .lightningSend, effectiveBalanceSat: -10_050,
                          time: .pending(since: Fixture.now)),
        ])
        try await Fixture.withSimulator(Scenario(wallets: [wallet])) { sim in
            let url = sim.barkdURL("w") + "/api/v1/wallet/balance"
            func balance() async throws -> [String: Int] { EsploraAPITests.numbers(try await HTTPProbe.get(url).object) }
            var now = try await balance()
            #expect(now["spendable_sat"] == 89_950 && now["pending_lightning_send_sat"] == 10_050)
            try await sim.updateMovement(id: 2, in: "w", MovementUpdate(status: .successful))
            now = try await balance()
            #expect(now["spendable_sat"] == 89_950 && now["pending_lightning_send_sat"] == 0)
            try await sim.addMovement(BarkdMovement(status: .pending, subsystem: .board, effectiveBalanceSat: 50_000,
                                                    time: .pending(since: Fixture.now)), to: "w")
            #expect(try await balance()["pending_board_sat"] == 50_000)
            try await sim.updateMovement(id: 3, in: "w", MovementUpdate(status: .failed, effectiveBalanceSat: 0))
            #expect(try await balance()["pending_board_sat"] == 0)
            try await sim.setBalance(BarkdBalance(spendableSat: 1), for: "w")
            #expect(try await balance()["spendable_sat"] == 1, "a set balance wins")
            #expect(try await HTTPProbe.control("DELETE", sim.controlURL + "/barkd/w/balance").status == 204)
            #expect(try await balance()["spendable_sat"] == 89_950, "and DELETE returns to the derived one")

            let onchainURL = sim.barkdURL("w") + "/api/v1/onchain/balance"
            try await sim.addOnchainTransaction(BarkdWalletTx(txid: Fixture.txid(77), balanceChangeSat: 5_000), to: "w")
            var onchain = EsploraAPITests.numbers(try await HTTPProbe.get(onchainURL).object)
            #expect(onchain["untrusted_pending_sat"] == 5_000 && onchain["confirmed_sat"] == 0)
            try await sim.confirmOnchainTransaction(Fixture.txid(77), in: "w", height: 870_001)
            onchain = EsploraAPITests.numbers(try await HTTPProbe.get(onchainURL).object)
            #expect(onchain["untrusted_pending_sat"] == 0 && onchain["confirmed_sat"] == 5_000 && onchain["total_sat"] == 5_000)
        }
    }

    @Test func derivedBalanceOverAGeneratedHistory() async throws {
        let wallet = WalletScenario(name: "g", generatedMovements: GeneratedMovements(count: 3_000, seed: 11))
        try await Fixture.withSimulator(Scenario(wallets: [wallet])) { sim in
            let url = sim.barkdURL("g") + "/api/v1/wallet/balance"
            let history = try #require(try await HTTPProbe.get(sim.barkdURL("g") + "/api/v1/history").array)
            // Successful movements are what the spendable figure adds up.
            var expected = 0
            for movement in history {
                let amount = movement["effective_balance_sat"] as? Int ?? 0
                let name = (movement["subsystem"] as? [String: Any])?["name"] as? String
                switch movement["status"] as? String {
                case "successful": expected += amount
                case "pending" where name == "bark.lightning_send" || name == "bark.exit": expected += amount
                case "pending": expected += min(0, amount)
                default: break
                }
            }
            let before = EsploraAPITests.numbers(try await HTTPProbe.get(url).object)
            #expect(before["spendable_sat"] == max(0, expected))
            let last = try #require(history.last?["id"] as? Int)
            try await sim.updateMovement(id: last, in: "g", MovementUpdate(status: .failed, effectiveBalanceSat: 0))
            let lostAmount = history.last?["status"] as? String == "successful" ? (history.last?["effective_balance_sat"] as? Int ?? 0) : 0
            let after = EsploraAPITests.numbers(try await HTTPProbe.get(url).object)
            #expect(after["spendable_sat"] == max(0, expected - lostAmount), "a generated movement replaced")
        }
    }

    @Test func esploraTransactionsAndPrices() async throws {
        try await Fixture.withSimulator(Scenario()) { sim in
            let txid = Fixture.txid(0xE5)
            let body = #"{"txid":"\#(txid)","inputs":[{"address":"\#(Fixture.otherAddress)","value":60000}],"outputs":[{"address":"\#(Fixture.address)","value":50000}],"fee":10000}"#
            #expect(try await HTTPProbe.control("POST", sim.controlURL + "/esplora/transactions", json: body).status == 201)
            let address = sim.esploraURL + "/address/" + Fixture.address
            var stats = try #require(try await HTTPProbe.get(address).object)
            #expect(EsploraAPITests.numbers(stats["mempool_stats"])["funded_txo_sum"] == 50_000)
            #expect(EsploraAPITests.numbers(stats["chain_stats"])["tx_count"] == 0)
            _ = try await HTTPProbe.control("POST", sim.controlURL + "/esplora/transactions/\(txid)/confirm",
                                            json: #"{"block_height":870001,"block_time":1795262000}"#)
            stats = try #require(try await HTTPProbe.get(address).object)
            #expect(EsploraAPITests.numbers(stats["chain_stats"])["funded_txo_sum"] == 50_000)
            #expect(EsploraAPITests.numbers(stats["mempool_stats"])["tx_count"] == 0)
            #expect(try await HTTPProbe.get(sim.esploraURL + "/blocks/tip/height").text == "870001", "confirming above the tip moves it")
            let tx = try #require(try await HTTPProbe.get(sim.esploraURL + "/tx/" + txid).object)
            #expect((tx["status"] as? [String: Any])?["block_time"] as? Int == 1_795_262_000)
            #expect(try await HTTPProbe.control("POST", sim.controlURL + "/esplora/transactions", json: body).status == 409)

            _ = try await HTTPProbe.control("PUT", sim.controlURL + "/prices", json: #"{"USD":70000.5,"EUR":64000}"#)
            #expect(try await HTTPProbe.get(sim.coingeckoURL + "/simple/price?ids=bitcoin&vs_currencies=eur,usd").text
                    == #"{"bitcoin":{"eur":64000,"usd":70000.5}}"#)
            let mempool = try #require(try await HTTPProbe.get(sim.mempoolURL + "/v1/prices").object)
            #expect(mempool["GBP"] == nil, "PUT replaces the table")
        }
    }

    @Test func requestLogRecordsAndResets() async throws {
        try await Fixture.withSimulator(Scenario(wallets: [Fixture.arkWallet()])) { sim in
            _ = try await HTTPProbe.get(sim.esploraURL + "/address/" + Fixture.address + "/txs")
            _ = try await HTTPProbe.get(sim.barkdURL("ark") + "/api/v1/wallet/vtxos?all=true", token: "t")
            _ = try await HTTPProbe.get(sim.controlURL + "/state")
            let log = try #require(try await HTTPProbe.get(sim.controlURL + "/requests").array)
            #expect(log.map { $0["path"] as? String } == ["/esplora/address/\(Fixture.address)/txs", "/barkd/ark/api/v1/wallet/vtxos"])
            #expect(log[1]["query"] as? String == "all=true" && log[1]["method"] as? String == "GET")
            #expect(log[0]["time"] is String)
            #expect(await sim.requests(matching: "/esplora/address/\(Fixture.address)").count == 1)
            #expect(try await HTTPProbe.control("DELETE", sim.controlURL + "/requests").status == 204)
            #expect(await sim.requests().isEmpty, "and control requests are never recorded")
        }
    }
}
