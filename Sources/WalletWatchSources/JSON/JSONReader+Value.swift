import WalletWatchCore

extension JSONReader {
    /// Reads any value into a ``JSONValue`` tree, numbers kept exactly as written (a JSON-RPC
    /// answer is read whole before its parts are decoded by whoever knows their types).
    public mutating func readValue() throws -> JSONValue {
        switch peekKind() {
        case .object:
            var members: [JSONValue.Member] = []
            try readObject { reader, key in members.append(JSONValue.Member(key.string, try reader.readValue())) }
            return .object(members)
        case .array:
            var elements: [JSONValue] = []
            try readArray { reader, _ in elements.append(try reader.readValue()) }
            return .array(elements)
        case .string: return .string(try readString())
        case .bool: return .bool(try readBool())
        case .null:
            _ = readNull()
            return .null
        case .number: return .number(String(decoding: try readRawValue(), as: UTF8.self))
        case .end: throw error("unexpected end of the document")
        }
    }
}
