/// A JSON-RPC call's positional params, read as geth reads them: a missing required one is
/// `missing value for required argument N`, a malformed one `invalid argument N: <why>`.
struct EVMParams: Sendable {
    let values: [JSONValue]

    init(_ values: [JSONValue]) {
        self.values = values
    }

    /// The param at `index`, nil when absent or null.
    subscript(_ index: Int) -> JSONValue? {
        guard index < values.count, values[index] != .null else { return nil }
        return values[index]
    }

    func required(_ index: Int) throws -> JSONValue {
        guard let value = self[index] else { throw EVMRPCError.invalidParams("missing value for required argument \(index)") }
        return value
    }

    func address(_ index: Int) throws -> EVMAddress {
        try Self.address(try required(index), argument: index)
    }

    static func address(_ value: JSONValue, argument index: Int) throws -> EVMAddress {
        guard case .string(let text) = value else {
            throw EVMRPCError.invalidArgument(index, "json: cannot unmarshal non-string into Go value of type common.Address")
        }
        guard text.hasPrefix("0x") || text.hasPrefix("0X") else {
            throw EVMRPCError.invalidArgument(index, "json: cannot unmarshal hex string without 0x prefix into Go value of type common.Address")
        }
        guard let address = EVMAddress(text) else {
            let digits = text.utf8.count - 2
            throw EVMRPCError.invalidArgument(
                index, digits == 40 ? "json: cannot unmarshal invalid hex string into Go value of type common.Address"
                    : "hex string has length \(digits), want 40 for common.Address")
        }
        return address
    }

    func hash(_ index: Int) throws -> EVMHash {
        guard case .string(let text) = try required(index) else {
            throw EVMRPCError.invalidArgument(index, "json: cannot unmarshal non-string into Go value of type common.Hash")
        }
        guard let hash = EVMHash(text) else {
            throw EVMRPCError.invalidArgument(index, "hex string has length \(max(0, text.utf8.count - 2)), want 64 for common.Hash")
        }
        return hash
    }

    func bool(_ index: Int, default fallback: Bool) throws -> Bool {
        guard let value = self[index] else { return fallback }
        guard case .bool(let flag) = value else { throw EVMRPCError.invalidArgument(index, "json: cannot unmarshal non-bool into Go value of type bool") }
        return flag
    }

    /// A JSON integer (Otterscan's block numbers and page sizes).
    func integer(_ index: Int, _ what: String) throws -> Int {
        guard case .int(let number) = try required(index), let value = Int(exactly: number), value >= 0 else {
            throw EVMRPCError.invalidArgument(index, "\(what) must be a non-negative JSON integer")
        }
        return value
    }

    /// A quantity param.
    static func quantity(_ value: JSONValue, argument index: Int) throws -> Int128 {
        guard case .string(let text) = value else {
            throw EVMRPCError.invalidArgument(index, "json: cannot unmarshal non-string into Go value of type hexutil.Big")
        }
        switch EVMHex.parseQuantity(text) {
        case .success(let number): return number
        case .failure(let why): throw EVMRPCError.invalidArgument(index, why.message)
        }
    }

    /// Data param.
    static func data(_ value: JSONValue, argument index: Int) throws -> [UInt8] {
        guard case .string(let text) = value, let bytes = EVMHex.parseData(text) else {
            throw EVMRPCError.invalidArgument(index, "json: cannot unmarshal invalid hex string into Go value of type hexutil.Bytes")
        }
        return bytes
    }
}
