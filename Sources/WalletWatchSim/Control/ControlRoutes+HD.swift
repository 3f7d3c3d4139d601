import Foundation
import Hummingbird

extension ControlRoutes {
    /// The HD wallets' routes: deposits, spends and derived addresses (see the table on
    /// ``ControlRoutes``).
    func registerHDWallets(on wallet: RouterGroup<SimRequestContext>) {
        wallet.post("deposit") { request, context in
            let deposit = try await Self.body(HDDepositBody.self, request, context)
            let transaction = try await state.hdDeposit(
                wallet: try context.parameters.require("wallet"), chain: (deposit.chain ?? .receive).wallet, index: deposit.index,
                value: deposit.value, height: deposit.blockHeight)
            return try Self.reply(transaction, status: .created)
        }
        wallet.post("spend") { request, context in
            let spend = try await Self.body(HDSpendBody.self, request, context)
            let transaction = try await state.hdSpend(
                wallet: try context.parameters.require("wallet"), pay: spend.pay, changeIndex: spend.changeIndex, height: spend.blockHeight)
            return try Self.reply(transaction, status: .created)
        }
        wallet.get("address/:chain/:index") { _, context in
            let chainText = try context.parameters.require("chain")
            guard let chain = HDChain(rawValue: chainText) else {
                throw SimulatorError(.invalid, "chain must be receive or change, not \(chainText)")
            }
            let indexText = try context.parameters.require("index")
            guard let index = Int(indexText) else { throw SimulatorError(.invalid, "index must be a number: \(indexText)") }
            let address = try await state.hdAddress(wallet: try context.parameters.require("wallet"), chain: chain.wallet, index: index)
            return try Self.reply(["address": address])
        }
    }
}

/// `{"index": N, "chain": "receive"|"change", "value": sats, "block_height": N}`: a deposit.
struct HDDepositBody: Codable, Sendable {
    var index: Int
    var chain: HDChain?
    var value: Int64?
    var blockHeight: Int?
    private enum CodingKeys: String, CodingKey { case index, chain, value, blockHeight = "block_height" }
}

/// `{"change_index": N, "pay": sats, "block_height": N}`: a spend.
struct HDSpendBody: Codable, Sendable {
    var changeIndex: Int
    var pay: Int64?
    var blockHeight: Int?
    private enum CodingKeys: String, CodingKey { case changeIndex = "change_index", pay, blockHeight = "block_height" }
}
