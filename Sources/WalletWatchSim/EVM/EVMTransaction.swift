/// A signed transaction as the simulator keeps it: what it asks (sender, recipient, value, call
/// data, nonce, gas, fees) and what it is meant to do, which mining turns into an outcome
/// (``EVMMinedTransaction``). Its hash covers what a signature would, so the same transaction
/// mined again after a reorg keeps its hash, as on Ethereum.
struct EVMTransaction: Sendable {
    /// What executing the transaction does.
    enum Action: Sendable, Hashable {
        /// Moves `value` to `to`.
        case transfer
        /// ERC-20 `transfer(to, amount)` on `token` (the transaction's `to`).
        case tokenTransfer(token: EVMAddress, recipient: EVMAddress, amount: Int128)
        /// The token's `mint(to, amount)`.
        case mint(token: EVMAddress, recipient: EVMAddress, amount: Int128)
        /// The contract (the transaction's `to`) sends the value on to `recipient`.
        case forward(recipient: EVMAddress)
        /// Creates `contract`.
        case create(contract: EVMAddress)
    }

    let hash: EVMHash
    let action: Action
    let from: EVMAddress
    /// nil for a contract creation.
    let to: EVMAddress?
    let value: Int128
    let input: [UInt8]
    let nonce: Int
    let gasLimit: Int
    let maxFeePerGas: Int128
    let maxPriorityFeePerGas: Int128
    /// The scenario made it revert.
    let forcedFailure: Bool
    let gasUsedOverride: Int?
    let l1FeeOverride: Int128?

    init(action: Action, from: EVMAddress, to: EVMAddress?, value: Int128, input: [UInt8], nonce: Int, gasLimit: Int, maxFeePerGas: Int128,
         maxPriorityFeePerGas: Int128, forcedFailure: Bool, gasUsedOverride: Int?, l1FeeOverride: Int128?, chainID: Int) {
        self.action = action
        self.from = from
        self.to = to
        self.value = value
        self.input = input
        self.nonce = nonce
        self.gasLimit = gasLimit
        self.maxFeePerGas = maxFeePerGas
        self.maxPriorityFeePerGas = maxPriorityFeePerGas
        self.forcedFailure = forcedFailure
        self.gasUsedOverride = gasUsedOverride
        self.l1FeeOverride = l1FeeOverride
        hash = EVMHash(hashing: [
            "walletwatch-sim evm transaction", String(chainID), from.hex, to?.hex ?? "", String(value), EVMHex.data(input), String(nonce),
            String(gasLimit), String(maxFeePerGas), String(maxPriorityFeePerGas), forcedFailure ? "fail" : "",
        ])
    }

    /// The signature's `r` and `s` (made up from the hash: the simulator signs nothing) and the
    /// y parity, as quantities.
    var signature: (r: String, s: String, yParity: String) {
        let r = EVMHash(hashing: [hash.hex, "r"]).hex.dropFirst(2), s = EVMHash(hashing: [hash.hex, "s"]).hex.dropFirst(2)
        func quantity(_ digits: Substring) -> String {
            let trimmed = digits.drop { $0 == "0" }
            return "0x" + (trimmed.isEmpty ? "0" : trimmed)
        }
        return (quantity(r), quantity(s), hash.hex.last.map { "01234567".contains($0) } == true ? "0x0" : "0x1")
    }

    /// The transaction's type: 2, EIP-1559 (every transaction the simulator makes).
    static let type = 2
}

/// A log a transaction emitted: an ERC-20 `Transfer`.
struct EVMLog: Sendable {
    let address: EVMAddress
    let topics: [String]
    let data: String
    /// The position among the block's logs, as nodes number them.
    let logIndex: Int
}

/// A value transfer or creation made by a contract inside a transaction, as Erigon's operations
/// tracer reports it (`ots_getInternalOperations`) and Etherscan lists it (`txlistinternal`).
struct EVMInternalOperation: Sendable {
    /// 0 transfer, 2 create, 3 create2 (Otterscan's numbering).
    let kind: Int
    let from: EVMAddress
    let to: EVMAddress
    let value: Int128
    let gas: Int
    let gasUsed: Int
    /// The frame's position in the call tree (Etherscan's `traceId`).
    let traceAddress: [Int]
    /// It, or a frame around it, failed: the value did not move.
    let reverted: Bool
}

/// A mined transaction with its receipt's contents.
struct EVMMinedTransaction: Sendable {
    let transaction: EVMTransaction
    let blockNumber: Int
    let index: Int
    /// 1 success, 0 reverted.
    let status: Int
    let gasUsed: Int
    let cumulativeGasUsed: Int
    let effectiveGasPrice: Int128
    /// An OP Stack chain's L1 data fee; nil on other chains.
    let l1: EVML1Fee?
    let logs: [EVMLog]
    let internalOperations: [EVMInternalOperation]
    /// The contract a creation made.
    let created: EVMAddress?
    /// Every address in the call tree (what Erigon's trace index holds): a token's recipient is not one.
    let touched: Set<EVMAddress>
    /// What a revert returned (`ots_getTransactionError`).
    let revertData: [UInt8]

    var hash: EVMHash { transaction.hash }

    /// What the sender paid: gas used times the effective gas price, plus the L1 fee.
    var fee: Int128 { Int128(gasUsed) * effectiveGasPrice + (l1?.fee ?? 0) }
}

/// An OP Stack receipt's L1 data fee and its parts (Ecotone's fields).
struct EVML1Fee: Sendable {
    let fee: Int128
    let gasUsed: Int
    let gasPrice: Int128
    let baseFeeScalar: Int
    let blobBaseFee: Int128
    let blobBaseFeeScalar: Int

    /// The fee Ecotone's formula gives for `inputBytes` of call data (the transaction's L1 gas:
    /// 16 a byte plus a signed envelope's 1,088), unless the scenario set it.
    static func of(inputBytes: Int, override: Int128?) -> EVML1Fee {
        let gasUsed = 1_088 + 16 * inputBytes
        let gasPrice: Int128 = 2_000_000_000, baseFeeScalar = 5_227, blobBaseFee: Int128 = 1, blobBaseFeeScalar = 1_014_213
        let computed = Int128(gasUsed) * (16 * Int128(baseFeeScalar) * gasPrice + Int128(blobBaseFeeScalar) * blobBaseFee) / 16_000_000
        return EVML1Fee(fee: override ?? computed, gasUsed: gasUsed, gasPrice: gasPrice, baseFeeScalar: baseFeeScalar,
                        blobBaseFee: blobBaseFee, blobBaseFeeScalar: blobBaseFeeScalar)
    }
}

/// A block of the simulated chain.
struct EVMBlock: Sendable {
    let number: Int
    let hash: EVMHash
    let parentHash: EVMHash
    let timestamp: Int64
    let baseFeePerGas: Int128
    let gasUsed: Int
    let transactions: [EVMMinedTransaction]

    /// Every block's gas limit: eth-tester's (py-evm's genesis default), 30,029,122.
    static let gasLimit = 30_029_122
    /// The genesis block's base fee: 1 gwei, as eth-tester's.
    static let genesisBaseFee: Int128 = 1_000_000_000

    /// EIP-1559's base fee for the block after this one: up or down by at most an eighth as this
    /// block used more or less than half its gas limit.
    var nextBaseFee: Int128 {
        let target = Int128(Self.gasLimit / 2), used = Int128(gasUsed)
        if used == target { return baseFeePerGas }
        if used > target { return baseFeePerGas + max(baseFeePerGas * (used - target) / target / 8, 1) }
        return baseFeePerGas - baseFeePerGas * (target - used) / target / 8
    }

    var logCount: Int { transactions.reduce(0) { $0 + $1.logs.count } }
}

/// A value (a balance, a nonce) through the blocks: the value after each block that changed
/// it, so that any block's value is a binary search away.
struct EVMValueHistory: Sendable {
    private var blocks: [Int] = []
    private var values: [Int128] = []

    /// The value after block `number` (0 before the first change).
    func value(at number: Int) -> Int128 {
        var low = 0, high = blocks.count
        while low < high {
            let middle = (low + high) / 2
            if blocks[middle] <= number { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? 0 : values[low - 1]
    }

    /// The newest value.
    var latest: Int128 { values.last ?? 0 }

    /// Sets the value after block `number` (the newest block).
    mutating func set(_ value: Int128, at number: Int) {
        if blocks.last == number {
            values[values.count - 1] = value
        } else {
            blocks.append(number)
            values.append(value)
        }
    }

    /// Forgets the changes of blocks above `number` (a reorg).
    mutating func truncate(above number: Int) {
        while let last = blocks.last, last > number {
            blocks.removeLast()
            values.removeLast()
        }
    }
}
