import WalletWatchBitcoin

/// The raw transaction the simulator serves for a compact ``EsploraTxSpec``: version 2, an empty
/// scriptSig and sequence 0xfffffffd per input (replaceable, BIP125), each output's script, lock
/// time 0, and a ``SimulatedWitness`` per input.
enum SimulatedTransaction {
    /// The transaction `spec` describes, without witnesses (its txid is the same); nil when an
    /// input does not name the output it spends or an output's address has no real script.
    static func unsigned(_ spec: EsploraTxSpec) -> RawTransaction? {
        guard !spec.inputs.isEmpty else { return nil }
        var inputs: [RawTransaction.Input] = []
        for input in spec.inputs {
            guard let txid = input.txid, let vout = input.vout, vout >= 0 else { return nil }
            inputs.append(RawTransaction.Input(previousTxid: txid, previousIndex: UInt32(vout), sequence: 0xffff_fffd))
        }
        var outputs: [RawTransaction.Output] = []
        for output in spec.outputs {
            guard let script = OutputScript.decode(output.address) else { return nil }
            outputs.append(RawTransaction.Output(value: output.value, scriptPubKey: script))
        }
        return RawTransaction(version: 2, inputs: inputs, outputs: outputs, lockTime: 0)
    }

    /// The transaction `spec` describes with its witnesses, as blocks hold it; nil as for ``unsigned(_:)``.
    static func signed(_ spec: EsploraTxSpec) -> RawTransaction? {
        unsigned(spec).flatMap(withWitnesses)
    }

    /// The transaction spending `inputs` and paying `outputs`, with its witnesses; nil when an
    /// input's txid is malformed.
    static func signed(spending inputs: [Outpoint], paying outputs: [ChainOutput]) -> RawTransaction? {
        withWitnesses(RawTransaction(
            version: 2, inputs: inputs.map { RawTransaction.Input(previousTxid: $0.txid, previousIndex: UInt32($0.vout), sequence: 0xffff_fffd) },
            outputs: outputs.map { RawTransaction.Output(value: $0.value, scriptPubKey: $0.script) }, lockTime: 0))
    }

    private static func withWitnesses(_ unsigned: RawTransaction) -> RawTransaction? {
        guard let txid = unsigned.txid else { return nil }
        var raw = unsigned
        for index in raw.inputs.indices {
            raw.inputs[index].witness = SimulatedWitness.items(txid: txid, input: index).map { Hex.decode($0) ?? [] }
        }
        return raw
    }
}
