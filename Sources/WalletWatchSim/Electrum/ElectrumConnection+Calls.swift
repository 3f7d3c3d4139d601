import Foundation
import NIOCore

extension ElectrumConnection {
    /// What a call produces: a JSON-RPC message, a raw line (a fault's), or nothing (a
    /// notification, or a dropped call).
    enum Answer {
        case message(JSONValue)
        case raw(ByteBuffer)
        case none
    }

    /// When the connection closes because of a call.
    enum Closing {
        case no
        /// Without writing this call's answer (nor the rest of its batch).
        case beforeAnswer
        /// Once this call's answer (and its batch's earlier ones) is written.
        case afterAnswer
    }

    /// A call's answer, whether the connection closes with it, and whether its batch is answered
    /// in reverse order.
    struct Outcome {
        var answer: Answer
        var closing: Closing = .no
        var reversesBatch = false
    }

    /// Answers one line: a call, or a batch answered by one array. False when the connection
    /// must close once what is queued is written.
    func handle(_ line: [UInt8], write: Int) async -> Bool {
        guard let request = try? JSONDecoder().decode(JSONValue.self, from: Data(line)) else {
            send(ElectrumWire.reply(.null, error: ElectrumError(-32700, "invalid JSON")))
            return true
        }
        switch request {
        case .array(let calls):
            guard !calls.isEmpty else {
                send(ElectrumWire.reply(.null, error: ElectrumError(-32600, "batch is empty")))
                return true
            }
            let batch = session.withLockedValue { session in
                session.batches += 1
                return session.batches
            }
            var answers: [JSONValue] = []
            var rawLine: ByteBuffer?
            var closing = Closing.no
            var reversed = false
            for call in calls {
                let outcome = await self.call(call, write: write, batch: batch)
                reversed = reversed || outcome.reversesBatch
                if outcome.closing == .beforeAnswer { return false }
                switch outcome.answer {
                case .message(let message): answers.append(message)
                // A raw line stands for the whole batch's answer.
                case .raw(let bytes): rawLine = rawLine ?? bytes
                case .none: break
                }
                closing = outcome.closing
                if closing == .afterAnswer { break }
            }
            if let rawLine {
                send(raw: rawLine)
            } else if !answers.isEmpty {
                send(raw: ElectrumWire.line(batch: reversed ? answers.reversed() : answers))
            }
            return closing == .no
        case .object:
            let outcome = await call(request, write: write, batch: nil)
            switch outcome.answer {
            case .message(let message) where outcome.closing != .beforeAnswer: send(message)
            case .raw(let bytes) where outcome.closing != .beforeAnswer: send(raw: bytes)
            default: break
            }
            return outcome.closing == .no
        default:
            send(ElectrumWire.reply(.null, error: ElectrumError(-32600, "request object must be a dictionary")))
            return true
        }
    }

    /// Answers one call: records it, draws its fault, and applies it.
    private func call(_ request: JSONValue, write: Int, batch: Int?) async -> Outcome {
        guard case .object = request, case .string(let method)? = request["method"] else {
            return Outcome(answer: .message(ElectrumWire.reply(request["id"] ?? .null, error: ElectrumError(-32600, "invalid request"))))
        }
        let id = request["id"]
        let fault = await state.takeElectrumFault(for: method)
        await state.recordElectrum(ElectrumRequestRecord(
            connection: self.id, transport: transport, write: write, batch: batch, method: method, params: request["params"] ?? .null,
            id: id, time: state.clock.now(), fault: fault?.name))
        // ElectrumX answers nothing before server.version, and drops a client that tries.
        if method != "server.version", !session.withLockedValue(\.versionSeen) {
            let refusal = ElectrumError.bad("use server.version to identify client")
            return Outcome(answer: id.map { .message(ElectrumWire.reply($0, error: refusal)) } ?? .none, closing: .afterAnswer)
        }
        // A notification gets no answer.
        guard let id else { return Outcome(answer: .none) }
        switch fault {
        case .drop(let after)?:
            if after <= 0 { return Outcome(answer: .none, closing: .beforeAnswer) }
            session.withLockedValue { $0.answersBeforeClose = $0.answersBeforeClose ?? after }
        case .stall(let seconds)?:
            await state.pause(for: .milliseconds(Int64(seconds * 1000)))
        case .garbage?:
            return counted(Outcome(answer: .raw(ElectrumWire.garbage)))
        case .longLine(let bytes)?:
            return counted(Outcome(answer: .raw(ElectrumWire.longLine(id: id, bytes: bytes))))
        case .error(let code, let message)?:
            return counted(Outcome(answer: .message(ElectrumWire.reply(id, error: ElectrumError(code, message)))))
        case .historyTooLarge?:
            return counted(Outcome(answer: .message(ElectrumWire.reply(id, error: .historyTooLarge))))
        case .longNotification(let bytes, let inMethod, let count)?:
            let long = String(repeating: "f", count: bytes)
            let notification = ElectrumWire.notification(inMethod ? long : "blockchain.scripthash.subscribe",
                                                         [.string(String(repeating: "0", count: 64)), .string(inMethod ? String(repeating: "f", count: 64) : long)])
            for _ in 0..<max(0, count) { send(notification) }
        case .notification(let line, let count)?:
            for _ in 0..<max(0, count) { send(raw: ByteBuffer(string: line + "\n")) }
        default:
            break
        }
        do {
            let result = try await answer(method, ElectrumParams(raw: request["params"]), fault: fault)
            let message = fault == .notJSONRPC ? .object([.init("id", id), .init("answer", result)]) : ElectrumWire.reply(id, result)
            return counted(Outcome(answer: .message(message), reversesBatch: fault == .reversedBatch))
        } catch {
            return counted(Outcome(answer: .message(ElectrumWire.reply(id, error: error)), closing: error.disconnects ? .afterAnswer : .no))
        }
    }

    /// Counts an answer against a `drop` fault's countdown.
    private func counted(_ outcome: Outcome) -> Outcome {
        let last = session.withLockedValue { session -> Bool in
            guard let remaining = session.answersBeforeClose else { return false }
            session.answersBeforeClose = remaining - 1
            return remaining <= 1
        }
        guard last else { return outcome }
        return Outcome(answer: outcome.answer, closing: .afterAnswer)
    }
}
