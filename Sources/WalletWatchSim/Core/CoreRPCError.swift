/// An error the Core face answers, with Bitcoin Core's codes (`src/rpc/protocol.h`).
struct CoreRPCError: Error, Sendable, Hashable {
    let code: Int
    let message: String

    init(_ code: Int, _ message: String) {
        self.code = code
        self.message = message
    }

    /// RPC_METHOD_NOT_FOUND.
    static let methodNotFound = CoreRPCError(-32601, "Method not found")
    /// RPC_PARSE_ERROR.
    static let parseError = CoreRPCError(-32700, "Parse error")
    /// RPC_INVALID_REQUEST.
    static let invalidRequest = CoreRPCError(-32600, "Invalid Request object")
    /// RPC_INVALID_ADDRESS_OR_KEY, as `getrawtransaction` words it.
    static let noSuchTransaction = CoreRPCError(-5, "No such mempool or blockchain transaction. Use gettransaction for wallet transactions.")
    /// RPC_INVALID_ADDRESS_OR_KEY, as `getblock` words it.
    static let blockNotFound = CoreRPCError(-5, "Block not found")
    /// RPC_INVALID_PARAMETER, as `getblockhash` words it.
    static let heightOutOfRange = CoreRPCError(-8, "Block height out of range")

    /// RPC_INVALID_PARAMETER.
    static func invalidParameter(_ message: String) -> CoreRPCError { CoreRPCError(-8, message) }
    /// RPC_MISC_ERROR: Core's answer to a call with the wrong number of params is its help text.
    static func usage(_ signature: String) -> CoreRPCError { CoreRPCError(-1, signature) }

    /// The JSON-RPC error object.
    var json: JSONValue { .object([.init("code", .int(Int64(code))), .init("message", .string(message))]) }
}
