import Synchronization
import WalletWatchCore
import WalletWatchNet

/// What one message of an Arkade notification stream said.
public enum ArkadeStreamEvent: Sendable, Equatable {
    /// arkd's first message on a new subscription.
    case started
    /// arkd's keep-alive (every 60 s by default).
    case heartbeat
    /// VTXOs of a watched address or script were created, spent or swept.
    case change
}

/// The two framings of Arkade's server streams, as their gateways write them.
enum ArkadeStreamFraming: Sendable {
    /// Fulmine (grpc-gateway): one JSON object a line, `{"result": {...}}` or `{"error": Status}`.
    case jsonLines
    /// arkd (meshapi's gateway): server-sent events, `data: <message>` then a blank line; a
    /// stream error is `event: failure` with the Status as its data.
    case serverSentEvents
}

/// Reads a notification stream as it arrives and reports each message; a message that is not
/// what the API documents (not JSON, an unknown kind, a stream error) aborts the stream with
/// that error. Lines are limited in size so a stream without newlines cannot grow without bound.
final class ArkadeStreamConsumer: HTTPBodyConsumer {
    private struct State {
        var line: [UInt8] = []
        var eventName: String?
        var data: [UInt8] = []
    }

    private let framing: ArkadeStreamFraming
    private let onEvent: @Sendable (ArkadeStreamEvent) -> Void
    private let state = Mutex(State())
    /// The longest line accepted (a notification lists VTXOs and a transaction: a few hundred KB at most).
    static let maximumLine = 4 << 20

    init(framing: ArkadeStreamFraming, onEvent: @escaping @Sendable (ArkadeStreamEvent) -> Void) {
        self.framing = framing
        self.onEvent = onEvent
    }

    func consume(_ chunk: UnsafeRawBufferPointer) throws {
        let events = try state.withLock { state -> [ArkadeStreamEvent] in
            var events: [ArkadeStreamEvent] = []
            for byte in chunk {
                guard byte == 10 else {
                    state.line.append(byte)
                    guard state.line.count <= Self.maximumLine else { throw JSONReadError(path: "", problem: "a stream message longer than \(Self.maximumLine) bytes") }
                    continue
                }
                if state.line.last == 13 { state.line.removeLast() }
                if let event = try take(&state) { events.append(event) }
                state.line.removeAll(keepingCapacity: true)
            }
            return events
        }
        for event in events { onEvent(event) }
    }

    /// Handles the complete line in `state.line`.
    private func take(_ state: inout State) throws -> ArkadeStreamEvent? {
        switch framing {
        case .jsonLines:
            guard !state.line.isEmpty else { return nil }
            return try Self.jsonLine(state.line)
        case .serverSentEvents:
            let line = state.line
            if line.isEmpty {
                defer { state.data.removeAll(); state.eventName = nil }
                guard !state.data.isEmpty else { return nil }
                return try Self.serverSentEvent(name: state.eventName, data: state.data)
            }
            if line.first == UInt8(ascii: ":") { return nil }
            let text = String(decoding: line, as: UTF8.self)
            let (field, value) = text.firstIndex(of: ":").map { (String(text[..<$0]), String(text[text.index(after: $0)...].drop { $0 == " " })) } ?? (text, "")
            switch field {
            case "data":
                if !state.data.isEmpty { state.data.append(10) }
                state.data += Array(value.utf8)
            case "event": state.eventName = value
            default: break
            }
            return nil
        }
    }

    /// A Fulmine stream line: a result (a notification) or a stream error.
    static func jsonLine(_ line: [UInt8]) throws -> ArkadeStreamEvent {
        try JSONReader.read(line) { reader in
            var event: ArkadeStreamEvent?
            var failure: String?
            try reader.readObject { reader, key in
                if key.is("result") {
                    var notification = false
                    try reader.readObject { reader, key in
                        if key.is("notification") { notification = true }
                        try reader.skipValue()
                    }
                    guard notification else { throw reader.missing("notification") }
                    event = .change
                } else if key.is("error") {
                    failure = try status(&reader)
                } else { try reader.skipValue() }
            }
            if let failure { throw JSONReadError(path: "", problem: "the stream reported an error: \(failure)") }
            guard let event else { throw JSONReadError(path: "", problem: "a stream message with neither 'result' nor 'error'") }
            return event
        }
    }

    /// An arkd event: `GetSubscriptionResponse` (one of `heartbeat`, `event`,
    /// `subscriptionStarted`), or a `failure` carrying a Status.
    static func serverSentEvent(name: String?, data: [UInt8]) throws -> ArkadeStreamEvent {
        if name == "failure" || name == "error" {
            let message = try JSONReader.read(data) { try status(&$0) }
            throw JSONReadError(path: "", problem: "the stream reported an error: \(message)")
        }
        return try JSONReader.read(data) { reader in
            var event: ArkadeStreamEvent?
            var unknown: String?
            try reader.readObject { reader, key in
                if key.is("heartbeat") { event = .heartbeat; try reader.skipValue() }
                else if key.is("subscriptionStarted") { event = .started; try reader.skipValue() }
                else if key.is("event") {
                    var hasTxid = false
                    try reader.readObject { reader, key in
                        if key.is("txid") { hasTxid = true }
                        try reader.skipValue()
                    }
                    guard hasTxid else { throw reader.missing("txid") }
                    event = .change
                } else { unknown = key.string; try reader.skipValue() }
            }
            guard let event else {
                throw JSONReadError(path: "", problem: "a stream message of an unknown kind\(unknown.map { " (\(JSONReader.shown($0)))" } ?? ""); expected heartbeat, event or subscriptionStarted")
            }
            return event
        }
    }

    /// A `google.rpc.Status`: its message, on one line.
    static func status(_ reader: inout JSONReader) throws -> String {
        var code: Int64?, message = ""
        try reader.readObject { reader, key in
            if key.is("code") { code = try reader.readInt64() }
            else if key.is("message") { message = try reader.readString() }
            else { try reader.skipValue() }
        }
        return "code \(code ?? 0): \(JSONReader.visible(message))"
    }
}
