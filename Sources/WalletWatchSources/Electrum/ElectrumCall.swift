/// One JSON-RPC call of the Electrum protocol: a method and its positional parameters.
public struct ElectrumCall: Sendable, Hashable {
    /// A parameter: Electrum's methods take strings, integers, booleans and lists of strings.
    public enum Parameter: Sendable, Hashable {
        case string(String)
        case integer(Int64)
        case bool(Bool)
        case strings([String])
    }

    public var method: String
    public var parameters: [Parameter]

    /// A call of `method` with `parameters`.
    public init(_ method: String, _ parameters: [Parameter] = []) {
        self.method = method
        self.parameters = parameters
    }

    /// The request as one line of JSON (without its newline), with `id`.
    func line(id: Int) -> [UInt8] {
        var text = #"{"jsonrpc":"2.0","id":\#(id),"method":"#
        Self.appendString(method, to: &text)
        text += #","params":["#
        for (index, parameter) in parameters.enumerated() {
            if index > 0 { text += "," }
            switch parameter {
            case .string(let value): Self.appendString(value, to: &text)
            case .integer(let value): text += String(value)
            case .bool(let value): text += value ? "true" : "false"
            case .strings(let values):
                text += "["
                for (position, value) in values.enumerated() {
                    if position > 0 { text += "," }
                    Self.appendString(value, to: &text)
                }
                text += "]"
            }
        }
        text += "]}"
        return Array(text.utf8)
    }

    /// `value` as a JSON string literal: quotes, backslashes and control characters escaped.
    static func appendString(_ value: String, to text: inout String) {
        text += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }
}

/// A server's answer to one call: its result as JSON (read by whoever made the call), or
/// the error object it sent instead.
public enum ElectrumReply: Sendable, Hashable {
    case result([UInt8])
    case error(code: Int64?, message: String)
}

/// A message the server sent on its own: a subscription's notification.
public struct ElectrumNotification: Sendable, Hashable {
    /// `blockchain.scripthash.subscribe` or `blockchain.headers.subscribe`.
    public let method: String
    /// The `params` array as JSON.
    public let parameters: [UInt8]
}
