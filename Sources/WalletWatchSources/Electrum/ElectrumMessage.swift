import WalletWatchCore

/// An error object with a null `id`: the server's answer to a request it could not read.
struct ElectrumUnaddressedError: Error {
    let code: Int64?
    let message: String
}

/// One JSON-RPC message from an Electrum server: an answer to a call, or a notification.
enum ElectrumMessage {
    case reply(id: Int, ElectrumReply)
    case notification(ElectrumNotification)

    /// Reads one message object. Anything that is neither an answer (an integer `id` with a
    /// `result` or an `error`) nor a notification (a `method` with `params` and no id) is refused.
    init(_ reader: inout JSONReader) throws {
        var id: Int64?
        var hasID = false
        var result: [UInt8]?
        var error: (code: Int64?, message: String)?
        var method: String?
        var parameters: [UInt8]?
        try reader.readObject { reader, key in
            if key.is("id") {
                hasID = !reader.readNull()
                if hasID { id = try reader.readInt64() }
            } else if key.is("result") {
                result = try reader.readRawValue()
            } else if key.is("error") {
                error = reader.readNull() ? nil : try Self.error(&reader)
            } else if key.is("method") {
                method = try reader.readString()
            } else if key.is("params") {
                parameters = try reader.readRawValue()
            } else {
                try reader.skipValue()
            }
        }
        if let method, !hasID {
            self = .notification(ElectrumNotification(method: method, parameters: parameters ?? Array("[]".utf8)))
        } else if let error, !hasID {
            // JSON-RPC's answer to a request the server could not read (a parse error, an
            // invalid request): it cannot name the request, but its message is worth showing.
            throw ElectrumUnaddressedError(code: error.code, message: error.message)
        } else if let id, let index = Int(exactly: id) {
            if let error {
                self = .reply(id: index, .error(code: error.code, message: error.message))
            } else if let result {
                self = .reply(id: index, .result(result))
            } else {
                throw reader.error("an answer has neither 'result' nor 'error'")
            }
        } else {
            throw reader.error("a message has neither an 'id' nor a 'method'")
        }
    }

    /// A JSON-RPC error object (`{"code": N, "message": "..."}`), or a bare string some servers send.
    private static func error(_ reader: inout JSONReader) throws -> (code: Int64?, message: String) {
        if reader.peekKind() == .string { return (nil, JSONReader.shown(try reader.readString())) }
        var code: Int64?
        var message = ""
        try reader.readObject { reader, key in
            if key.is("code") { code = try reader.readInt64() }
            else if key.is("message") { message = try reader.readString() }
            else { try reader.skipValue() }
        }
        return (code, Self.oneLine(message))
    }

    /// The server's own words on one line, its invisible characters spelled out, at most 300 characters.
    static func oneLine(_ text: String) -> String {
        let flat = JSONReader.printable(text.split(whereSeparator: \.isNewline).joined(separator: " "))
        return flat.count > 300 ? String(flat.prefix(300)) + "…" : flat
    }
}
