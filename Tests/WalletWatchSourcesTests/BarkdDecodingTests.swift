import Testing
import TestSupport
import WalletWatchCore
@testable import WalletWatchSources

/// A movement exactly as barkd 0.6 documents it.
let movementJSON = #"""
{"id": 7, "status": "successful",
 "subsystem": {"name": "bark.lightning_receive", "kind": "receive"},
 "metadata": {"payment_hash": "ab"},
 "intended_balance_sat": 21000, "effective_balance_sat": 20990, "offchain_fee_sat": 10,
 "sent_to": [], "received_on": [{"destination": {"type": "invoice", "value": "lnbc1..."}, "amount_sat": 21000}],
 "input_vtxos": [], "output_vtxos": ["ab:0"], "exited_vtxos": [],
 "time": {"created_at": "2026-11-02T10:00:00.123456Z", "updated_at": "2026-11-02T10:00:05Z", "completed_at": "2026-11-02T10:00:05+00:00"},
 "some_future_field": {"x": [1, 2]}}
"""#

@Suite("barkd decoding and mapping (SPEC.md section 4)")
struct BarkdDecodingTests {
    func decode(_ text: String) throws -> MovementData {
        try JSONReader.read(Array(text.utf8), BarkdDecoding.movement)
    }

    func failure(_ text: String) -> String? {
        do { _ = try decode(text); return nil } catch { return "\(error)" }
    }

    @Test("a documented movement decodes; unknown fields are ignored")
    func movement() throws {
        let movement = try decode(movementJSON)
        #expect(movement.id == 7)
        #expect(movement.status == .successful)
        #expect(movement.subsystem == "bark.lightning_receive")
        #expect(movement.effectiveBalance == 20990)
        #expect(movement.offchainFee == 10)
        #expect(movement.receivedOn == ["lnbc1..."])
        #expect(movement.createdAt == .at("2026-11-02T10:00:00.123Z"))
        #expect(movement.completedAt == .at("2026-11-02T10:00:05Z"))
    }

    @Test("each required field is required", arguments: [
        "id", "status", "subsystem", "intended_balance_sat", "effective_balance_sat", "offchain_fee_sat", "time",
    ])
    func required(field: String) throws {
        let pattern = try Regex("\"\(field)\": ")
        let renamed = movementJSON.replacing(pattern, with: "\"renamed_\(field)\": ", maxReplacements: 1)
        #expect(failure(renamed)?.contains("required field '\(field)' is missing") == true)
    }

    /// bark's docs/movements.md leaves empty lists out of its example movements; absent means empty.
    @Test("the five lists may be absent, meaning empty; present, they are read strictly", arguments: [
        "sent_to", "received_on", "input_vtxos", "output_vtxos", "exited_vtxos",
    ])
    func optionalLists(field: String) throws {
        let pattern = try Regex("\"\(field)\": ")
        let renamed = movementJSON.replacing(pattern, with: "\"renamed_\(field)\": ", maxReplacements: 1)
        let movement = try decode(renamed)
        #expect(movement.receivedOn == (field == "received_on" ? [] : ["lnbc1..."]))
        let mistyped = movementJSON.replacing(pattern, with: "\"\(field)\": 5, \"renamed_\(field)\": ", maxReplacements: 1)
        #expect(failure(mistyped) == "field \(field): expected an array, found a number")
    }

    @Test("wrong types, negative unsigned amounts and unknown statuses name the field")
    func refusals() {
        #expect(failure(movementJSON.replacingOccurrences(of: "\"effective_balance_sat\": 20990", with: "\"effective_balance_sat\": \"20990\""))
            == "field effective_balance_sat: expected an integer, found a string")
        #expect(failure(movementJSON.replacingOccurrences(of: "\"offchain_fee_sat\": 10", with: "\"offchain_fee_sat\": -10"))
            == "field offchain_fee_sat: must not be negative, got -10")
        #expect(failure(movementJSON.replacingOccurrences(of: "\"successful\"", with: "\"done\""))?.contains("field status") == true)
        #expect(failure(movementJSON.replacingOccurrences(of: "\"2026-11-02T10:00:05Z\"", with: "\"yesterday\""))?.contains("time.updated_at") == true)
        #expect(failure(movementJSON.replacingOccurrences(of: "\"amount_sat\": 21000", with: "\"amount_sat\": -1"))?.contains("received_on[0].amount_sat") == true)
    }

    /// Nothing can hold more than 21 million BTC: a larger amount is refused by name instead of
    /// being stored, where sums of it would overflow and stop the process.
    @Test("amounts beyond 21 million BTC are refused, naming the field")
    func absurdAmounts() throws {
        #expect(failure(movementJSON.replacingOccurrences(of: "\"effective_balance_sat\": 20990", with: "\"effective_balance_sat\": -2100000000000001"))
            == "field effective_balance_sat: -2100000000000001 sat is more than the 21 million BTC that can exist")
        #expect(try decode(movementJSON.replacingOccurrences(of: "\"effective_balance_sat\": 20990", with: "\"effective_balance_sat\": 2100000000000000"))
            .effectiveBalance == 2_100_000_000_000_000, "exactly 21 million BTC is possible")
        let balance = #"{"spendable_sat": 9223372036854775807, "pending_lightning_send_sat": 0, "claimable_lightning_receive_sat": 0, "pending_in_round_sat": 1, "pending_exit_sat": null, "pending_board_sat": 0}"#
        #expect(throws: JSONReadError.self) { try JSONReader.read(Array(balance.utf8), BarkdDecoding.balance) }
        do { _ = try JSONReader.read(Array(balance.utf8), BarkdDecoding.balance) } catch {
            #expect("\(error)".hasPrefix("field spendable_sat: 9223372036854775807 sat is more than"), "\(error)")
        }
        let summary = #"{"chain_stats": {"funded_txo_sum": 9000000000000000000, "spent_txo_sum": 1, "tx_count": 2}, "mempool_stats": {"funded_txo_sum": 0, "spent_txo_sum": 0, "tx_count": 0}}"#
        do { _ = try JSONReader.read(Array(summary.utf8), EsploraDecoding.summary); Issue.record("accepted") } catch {
            #expect("\(error)".contains("more than the 21 million BTC"), "\(error)")
        }
        // A coin that passed through an address many times may add up past the supply: the
        // balance, not the running sums, is what must fit.
        let busy = #"{"chain_stats": {"funded_txo_sum": 3000000000000000, "spent_txo_sum": 2999999999999000, "tx_count": 9}, "mempool_stats": {"funded_txo_sum": 0, "spent_txo_sum": 0, "tx_count": 0}}"#
        #expect(try JSONReader.read(Array(busy.utf8), EsploraDecoding.summary).chain.delta == 1000)
        let outputs = (0..<2).map { _ in #"{"scriptpubkey_address": "bc1q", "value": 2000000000000000}"# }.joined(separator: ",")
        let transaction = #"{"txid": "\#(String(repeating: "ab", count: 32))", "vin": [], "vout": [\#(outputs)], "fee": 0, "status": {"confirmed": false}}"#
        do { _ = try JSONReader.read(Array(transaction.utf8), EsploraDecoding.transaction); Issue.record("accepted") } catch {
            #expect("\(error)" == "the values of vout add up to more than the 21 million BTC that can exist", "\(error)")
        }
    }

    @Test("a wallet VTXO needs every documented field and a known state")
    func vtxo() throws {
        let documented = #"{"id": "\#(String(repeating: "ab", count: 32)):0", "amount_sat": 5000, "policy_type": "pubkey", "user_pubkey": "02aa", "server_pubkey": "03bb", "expiry_height": 870100, "exit_delta": 144, "exit_depth": 2, "chain_anchor": "cd:1", "state": {"type": "locked", "movement_id": 3}}"#
        func read(_ text: String) throws -> VTXO { try JSONReader.read(Array(text.utf8), BarkdDecoding.vtxo) }
        func failure(_ text: String) -> String? { do { _ = try read(text); return nil } catch { return "\(error)" } }
        let vtxo = try read(documented)
        #expect(vtxo.state == "locked" && vtxo.expiryHeight == 870_100 && vtxo.amount == 5000)
        #expect(failure(documented.replacingOccurrences(of: "\"locked\"", with: "\"spendabel\""))?.contains("'spendabel' is not a VTXO state") == true)
        #expect(failure(documented.replacingOccurrences(of: "\"chain_anchor\"", with: "\"anchor\""))?.contains("'chain_anchor' is missing") == true)
        #expect(failure(documented.replacingOccurrences(of: "\"exit_delta\": 144", with: "\"exit_delta\": 70000"))?.contains("exit_delta") == true)
        #expect(failure(documented.replacingOccurrences(of: "\"user_pubkey\"", with: "\"user_key\""))?.contains("'user_pubkey' is missing") == true)
    }

    @Test("ark-info needs every field all versions send, also those walletwatch does not keep")
    func arkInfo() throws {
        let documented = #"{"network": "bitcoin", "server_pubkey": "02aa", "mailbox_pubkey": "03bb", "round_interval": "30s", "nb_round_nonces": 8, "vtxo_exit_delta": 144, "htlc_send_expiry_delta": 10, "htlc_expiry_delta": 6, "max_vtxo_amount": null, "required_board_confirmations": 1, "max_user_invoice_cltv_delta": 200, "min_board_amount_sat": 1000, "offboard_feerate_sat_per_kvb": 2000, "ln_receive_anti_dos_required": false, "fees": {}, "max_vtxo_exit_depth": 12, "max_offboard_inputs": 20, "vtxo_expiry_delta": 4320}"#
        func read(_ text: String) throws -> ArkServerInfo { try JSONReader.read(Array(text.utf8), BarkdDecoding.arkInfo) }
        func failure(_ text: String) -> String? { do { _ = try read(text); return nil } catch { return "\(error)" } }
        #expect(try read(documented).vtxoLifetime == 4320)
        #expect(failure(documented.replacingOccurrences(of: "\"fees\"", with: "\"fee_schedule\""))?.contains("'fees' is missing") == true)
        // bark master renames vtxo_expiry_delta to vtxo_lifetime and will drop the old name.
        let renamed = documented.replacingOccurrences(of: "\"vtxo_expiry_delta\": 4320", with: "\"vtxo_lifetime\": 4321, \"tos_link\": null")
        #expect(try read(renamed).vtxoLifetime == 4321)
        let both = documented.replacingOccurrences(of: "\"vtxo_expiry_delta\": 4320", with: "\"vtxo_lifetime\": 4320, \"vtxo_expiry_delta\": 4320")
        #expect(try read(both).vtxoLifetime == 4320)
        #expect(try read(documented.replacingOccurrences(of: "\"vtxo_expiry_delta\": 4320", with: "\"tos_link\": \"https://ark.example/tos\"")).vtxoLifetime == nil)
        #expect(try read(documented.replacingOccurrences(of: "4320", with: "null")).vtxoLifetime == nil)
        #expect(failure(documented.replacingOccurrences(of: "\"vtxo_expiry_delta\": 4320", with: "\"vtxo_lifetime\": 4320, \"vtxo_expiry_delta\": 144"))
            == "vtxo_lifetime (4320) and its deprecated name vtxo_expiry_delta (144) differ")
        #expect(failure(documented.replacingOccurrences(of: "4320", with: "-1")) == "field vtxo_expiry_delta: must not be negative, got -1")
        #expect(failure(documented.replacingOccurrences(of: "\"vtxo_expiry_delta\": 4320", with: "\"vtxo_lifetime\": 70000"))
            == "field vtxo_lifetime: 70000 is larger than a 16-bit block count")
        #expect(failure(documented.replacingOccurrences(of: "4320", with: "\"4320\"")) == "field vtxo_expiry_delta: expected an integer, found a string")
    }

    @Test("subsystems map to transaction types; an unknown one is ark and reported, never a failure", arguments: [
        ("bark.arkoor", TransactionType.ark), ("bark.round", .ark), ("bark.lightning_send", .lightning),
        ("bark.lightning_receive", .lightning), ("bark.board", .board), ("bark.offboard", .offboard), ("bark.exit", .exit),
    ])
    func subsystems(name: String, type: TransactionType) throws {
        var movement = try decode(movementJSON)
        movement.subsystem = name
        let (transaction, unknown) = MovementMapping.transaction(movement, source: "ark")
        #expect(transaction.type == type)
        #expect(unknown == nil)
    }

    @Test("the mapping rules: txid, amount, direction, status, date, fee, counterparty")
    func mapping() throws {
        var movement = try decode(movementJSON)
        movement.subsystem = "bark.teleport"
        var (transaction, unknown) = MovementMapping.transaction(movement, source: "home")
        #expect(transaction.txid == "ark:home:7")
        #expect(transaction.type == .ark && unknown == "bark.teleport")
        #expect(transaction.amount == 20990 && transaction.direction == .incoming)
        #expect(transaction.status == .confirmed)
        #expect(transaction.date == .at("2026-11-02T10:00:05Z"))
        #expect(transaction.fee == 10)
        #expect(transaction.counterparty == "lnbc1...")
        let statuses: [(MovementData.Status, TransactionStatus)] = [(.pending, .pending), (.successful, .confirmed), (.failed, .failed), (.canceled, .failed)]
        for (status, expected) in statuses {
            movement.status = status
            #expect(MovementMapping.transaction(movement, source: "a").0.status == expected)
        }
        movement.completedAt = nil
        movement.effectiveBalance = -5000
        movement.sentTo = ["ark1qdest"]
        (transaction, _) = MovementMapping.transaction(movement, source: "a")
        #expect(transaction.date == movement.createdAt)
        #expect(transaction.direction == .outgoing)
        #expect(transaction.counterparty == "ark1qdest")
    }

    @Test("balances: nullable pending_exit_sat, every other field required and non-negative")
    func balance() throws {
        let json = #"{"spendable_sat": 5, "pending_lightning_send_sat": 1, "claimable_lightning_receive_sat": 2, "pending_in_round_sat": 3, "pending_exit_sat": null, "pending_board_sat": 4}"#
        let balance = try JSONReader.read(Array(json.utf8), BarkdDecoding.balance)
        #expect(balance.counted == 8 && balance.pending == 6 && balance.sending == 1 && balance.pendingExit == nil)
        let negative = json.replacingOccurrences(of: "\"spendable_sat\": 5", with: "\"spendable_sat\": -5")
        #expect(throws: JSONReadError.self) { try JSONReader.read(Array(negative.utf8), BarkdDecoding.balance) }
        let missing = json.replacingOccurrences(of: "\"pending_board_sat\": 4", with: "\"x\": 4")
        #expect(throws: JSONReadError.self) { try JSONReader.read(Array(missing.utf8), BarkdDecoding.balance) }
    }

    @Test("on-chain wallet transactions: confirmed with a block, dated from their depth")
    func walletTransactions() throws {
        let json = #"{"txid": "\#(String(repeating: "aa", count: 32))", "tx": "0200", "balance_change_sat": -700, "is_cpfp": false, "onchain_fee_sat": 150, "confirmation": {"height": 869990, "hash": "00ff"}}"#
        let wallet = try JSONReader.read(Array(json.utf8), BarkdDecoding.walletTransaction)
        let now = Instant.at("2026-11-21T12:00:00Z")
        let observed = MovementMapping.transaction(wallet, tipHeight: 870000, now: now)
        #expect(observed.status == .confirmed && observed.amount == -700 && observed.fee == 150)
        #expect(observed.date == nil, "barkd gives no time: only an estimate for first sight")
        #expect(observed.estimatedDate == now.adding(seconds: -6000))
        let pending = MovementMapping.transaction(WalletTransaction(txid: "b", balanceChange: 5, confirmationHeight: nil, fee: nil), tipHeight: 870000, now: now)
        #expect(pending.status == .pending && pending.date == nil)
    }
}

@Suite("Esplora amounts")
struct EsploraAmountTests {
    @Test("outputs to the addresses minus inputs from them; the counterparty is the first foreign party")
    func amounts() {
        let mine: Set<String> = ["bc1qmine1", "bc1qmine2"]
        let spend = ChainTransaction(
            txid: "t", inputs: [.init(address: "bc1qmine1", value: 100_000)],
            outputs: [.init(address: "bc1qshop", value: 60_000), .init(address: "bc1qmine2", value: 39_000)],
            fee: 1000, confirmed: true, blockHeight: 10, blockTime: 1_793_613_600)
        let observed = spend.observed(for: mine)
        #expect(observed?.amount == -61_000)
        #expect(observed?.counterparty == "bc1qshop")
        #expect(observed?.date == .at("2026-11-02T10:00:00Z"))
        let transfer = ChainTransaction(txid: "u", inputs: [.init(address: "bc1qmine1", value: 5)], outputs: [.init(address: "bc1qmine2", value: 4)],
                                          fee: 1, confirmed: false, blockHeight: nil, blockTime: nil)
        #expect(transfer.amount(for: mine) == -1)
        #expect(transfer.observed(for: mine)?.status == .pending)
    }

    /// The crash a hostile server caused (issue 26): two outputs of 2^62 sat to the wallet
    /// overflowed a trapping sum. Each side must add up within 21 million BTC, and no sum traps.
    @Test("outputs that add up beyond 21 million BTC give no amount, whatever their size, and never trap")
    func beyondTheSupply() {
        let mine: Set<String> = ["bc1qmine1"]
        let huge = ChainTransaction(txid: "h", inputs: [], outputs: [.init(address: "bc1qmine1", value: 1 << 62), .init(address: "bc1qmine1", value: 1 << 62)],
                                    fee: nil, confirmed: true, blockHeight: 1, blockTime: 1)
        #expect(huge.amount(for: mine) == nil && huge.observed(for: mine) == nil)
        #expect(WalletSync.activity(of: "bc1qmine1", in: [huge]) == nil)
        let max = ChainTransaction(txid: "m", inputs: [.init(address: "bc1qmine1", value: Int64.max)], outputs: [.init(address: "bc1qother", value: Int64.max)],
                                   fee: nil, confirmed: false, blockHeight: nil, blockTime: nil)
        #expect(max.amount(for: mine) == nil)
        // Exactly the supply, on one side: an amount (no real transaction, but not absurd arithmetic).
        let supply = ChainTransaction(txid: "s", inputs: [], outputs: [.init(address: "bc1qmine1", value: BitcoinSupply.maximumSats)],
                                      fee: nil, confirmed: true, blockHeight: 1, blockTime: 1)
        #expect(supply.amount(for: mine) == BitcoinSupply.maximumSats)
        #expect(BitcoinSupply.sum([BitcoinSupply.maximumSats, 1]) == nil && BitcoinSupply.sum([Int64.max, Int64.max]) == nil)
        #expect(BitcoinSupply.sum([-5, 3, 7]) == 5 && BitcoinSupply.add(Int64.min, -1) == nil)
    }
}
