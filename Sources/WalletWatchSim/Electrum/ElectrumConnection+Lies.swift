import Crypto
import WalletWatchBitcoin

/// The consistent lies of the Electrum face's faults (``ElectrumFaultKind``): what a hostile
/// server, or anyone on a `tcp://` path, can say that no status or txid check catches. Only a
/// client that proves what it is told (SPV) refuses them.
extension ElectrumConnection {
    /// `scripthash`'s history as the fault tells it.
    func history(_ scripthash: String, fault: ElectrumFaultKind?) async -> [ScriptHistoryItem] {
        let history = await state.electrumHistory(scripthash)
        switch fault {
        case .repeatedEntry?:
            return Self.repeatingFirst(history)
        case .forgedPayment(let address, let value, let outputs, let height, let padding)?:
            guard Script.electrumScripthash(OutputScript.decode(address) ?? []) == scripthash.lowercased(),
                  let txid = ForgedPayment.transaction(address: address, value: value, outputs: outputs, padding: padding)?.txid
            else { return history }
            return history + [ScriptHistoryItem(txid: txid, height: height, fee: nil)]
        case .everyScriptUsed?:
            guard history.isEmpty, let coinbase = await state.electrumCoinbase(atHeight: 1) else { return history }
            return [ScriptHistoryItem(txid: coinbase, height: 1, fee: nil)]
        case .behind(let height)?:
            return history.filter { $0.height <= height }
        case .height(let height)?:
            return history.map { $0.height > 0 ? ScriptHistoryItem(txid: $0.txid, height: Int(clamping: height), fee: $0.fee) : $0 }
        default:
            return history
        }
    }

    /// The tip as the fault tells it: its height, header bytes and hash.
    func tip(fault: ElectrumFaultKind?) async -> (height: Int, header: [UInt8], hash: String) {
        let tip = await state.electrumTip()
        switch fault {
        case .behind(let height)? where height < tip.height:
            let header = await state.electrumHeaders(from: height, count: 1).first ?? []
            return (height, header, (try? BlockHeader(parsing: header))?.hashHex ?? "")
        case .retimed(let height, let time)? where height <= tip.height:
            let header = await state.electrumRetimedHeaders(from: height, time: time).last
            return (tip.height, header?.serialized ?? tip.header, header?.hashHex ?? tip.hash)
        default:
            return tip
        }
    }

    /// Up to `count` headers from `start`, as the fault tells them.
    func headers(from start: Int, count: Int, fault: ElectrumFaultKind?) async -> [[UInt8]] {
        var headers = await state.electrumHeaders(from: start, count: count)
        switch fault {
        case .behind(let height)?:
            headers = Array(headers.prefix(max(0, height - start + 1)))
        case .retimed(let height, let time)?:
            let retimed = await state.electrumRetimedHeaders(from: height, time: time)
            for index in headers.indices where start + index >= height {
                headers[index] = retimed[start + index - height].serialized
            }
        default:
            break
        }
        return headers
    }

    /// The forged transaction's bytes when `txid` is the fault's.
    func forgedTransaction(_ txid: String, fault: ElectrumFaultKind?) -> [UInt8]? {
        guard case .forgedPayment(let address, let value, let outputs, _, let padding)? = fault,
              let forged = ForgedPayment.transaction(address: address, value: value, outputs: outputs, padding: padding), forged.txid == txid
        else { return nil }
        return forged.serialized
    }
}

/// A payment that was never mined or relayed: one input spending an outpoint nobody has, the
/// outputs a forging server wants its victim to see.
enum ForgedPayment {
    static func transaction(address: String, value: Int64, outputs: Int, padding: Int) -> RawTransaction? {
        guard let script = OutputScript.decode(address) else { return nil }
        let nowhere = Hex.encode(SHA256.hash(data: Array("walletwatch-sim: a payment that never was".utf8)))
        var paid = (0..<max(1, outputs)).map { _ in RawTransaction.Output(value: value, scriptPubKey: script) }
        if padding > 0 { paid.append(RawTransaction.Output(value: 0, scriptPubKey: [0x6a] + [UInt8](repeating: 0x21, count: padding))) }
        return RawTransaction(version: 2, inputs: [RawTransaction.Input(previousTxid: nowhere, previousIndex: 0, scriptSig: [0x51])], outputs: paid)
    }
}
