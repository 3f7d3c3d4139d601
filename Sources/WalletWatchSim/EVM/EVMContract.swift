/// A contract of the simulated chain: an ERC-20 token or a forwarder (a contract that sends on
/// the ether it is paid). Neither has real bytecode: the simulator answers their calls itself.
struct EVMContract: Sendable {
    enum Kind: Sendable {
        case token(symbol: String, name: String, decimals: Int, minter: EVMAddress)
        case forwarder
    }

    /// The scenario's name for it (a token's symbol).
    let name: String
    let address: EVMAddress
    let kind: Kind
    /// The block whose transaction created it (0: genesis); nil while it has no code yet.
    var createdIn: Int?

    /// Whether it has code at block `number`.
    func exists(at number: Int) -> Bool { createdIn.map { $0 <= number } ?? false }

    /// What `eth_getCode` answers once it exists: a few bytes standing for its code (not
    /// executable; the simulator answers calls itself), different for each contract.
    var code: String {
        let tail = EVMHash(hashing: ["code", address.hex]).hex.dropFirst(2)
        return "0x6080604052" + tail
    }

    /// A creation transaction's input: init code standing for its bytecode.
    var initCode: [UInt8] {
        Array(EVMHex.parseData(code) ?? []) + Array((EVMHex.parseData(EVMHash(hashing: ["init", address.hex]).hex) ?? []))
    }

    var isToken: Bool {
        if case .token = kind { return true }
        return false
    }
}

/// The function selectors and event topic the simulator's contracts answer (the first four bytes
/// of the Keccak-256 of each signature, as ERC-20 and ENVIRONMENT.md give them; `forward` and
/// `mint` are those of the test node's `Forwarder.vy` and `Token.vy`).
enum EVMSelector {
    static let balanceOf = "70a08231"
    static let decimals = "313ce567"
    static let symbol = "95d89b41"
    static let name = "06fdde03"
    static let totalSupply = "18160ddd"
    static let transfer = "a9059cbb"
    static let mint = "40c10f19"
    static let forward = "101e8952"
    /// `forward_and_revert(address)`: pays out, then reverts (the failed internal transfer).
    static let forwardAndRevert = "a46adbe6"
    /// `Transfer(address,address,uint256)`.
    static let transferTopic = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef"

    /// The function a transaction's input calls, as Etherscan's `functionName` shows it (the
    /// parameter names of the test node's vyper contracts); "" for others.
    static func functionName(_ input: [UInt8]) -> String {
        switch String(EVMHex.data(input.prefix(4)).dropFirst(2)) {
        case transfer: "transfer(address _to, uint256 _value)"
        case mint: "mint(address _to, uint256 _value)"
        case forward: "forward(address _to)"
        case forwardAndRevert: "forward_and_revert(address _to)"
        default: ""
        }
    }
}
