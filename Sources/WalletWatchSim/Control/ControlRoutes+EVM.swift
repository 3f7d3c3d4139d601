import Foundation
import Hummingbird

extension ControlRoutes {
    /// The EVM chain's routes: its summary, accounts, tokens and contracts added while it runs,
    /// transactions, mining, reorgs, finality, faults and request log (see the table on
    /// ``ControlRoutes``). 404 without an `evm` section.
    func registerEVM(on control: RouterGroup<SimRequestContext>) {
        control.get("evm") { _, _ in try Self.reply(try await state.evmSummary()) }
        control.post("evm/accounts") { request, context in
            try Self.reply(try await state.evmDeclare(account: try await Self.body(EVMAccountSpec.self, request, context)), status: .created)
        }
        control.post("evm/tokens") { request, context in
            try Self.reply(try await state.evmDeclare(token: try await Self.body(EVMTokenSpec.self, request, context)), status: .created)
        }
        control.post("evm/contracts") { request, context in
            try Self.reply(try await state.evmDeclare(contract: try await Self.body(EVMContractSpec.self, request, context)), status: .created)
        }
        control.post("evm/transactions") { request, context in
            try Self.reply(try await state.evmSend(try await Self.body(EVMTransactionSpec.self, request, context)), status: .created)
        }
        control.get("evm/transactions/:hash") { _, context in
            let text = try context.parameters.require("hash")
            guard let hash = EVMHash(text) else { throw SimulatorError(.invalid, "\(text) is not a transaction hash (0x and 64 hex digits)") }
            return try Self.reply(try await state.evmTransaction(hash))
        }
        control.post("evm/mine") { request, context in
            let body = try await Self.optionalBody(EVMMineBody.self, request, context) ?? EVMMineBody()
            return try Self.reply(try await state.evmMine(blocks: body.blocks ?? 1, timestamp: body.timestamp))
        }
        control.post("evm/reorg") { request, context in
            try Self.reply(try await state.evmReorg(try await Self.body(EVMReorgBody.self, request, context)))
        }
        control.on("evm/finality", methods: [.put, .post]) { request, context in
            try Self.reply(try await state.evmSetFinality(try await Self.body(EVMFinalityBody.self, request, context)))
        }
        control.get("evm/faults") { _, _ in try Self.reply(try await state.evmFaults()) }
        control.post("evm/faults") { request, context in
            let fault = try await Self.body(EVMFault.self, request, context)
            try await state.addEVMFault(fault)
            return try Self.reply(fault, status: .created)
        }
        control.delete("evm/faults") { _, _ in
            try await state.clearEVMFaults()
            return Response(status: .noContent)
        }
        control.get("evm/requests") { _, _ in try Self.reply(try await state.evmRequests()) }
        control.delete("evm/requests") { _, _ in
            try await state.resetEVMRequests()
            return Response(status: .noContent)
        }
    }
}
