extension RawTransaction {
    /// Reads a transaction in either serialization: legacy, or BIP144's with marker, flag and
    /// witnesses. Every byte must belong to the transaction (trailing bytes are refused), every
    /// count must fit in the bytes given, and a BIP144 form must carry at least one witness
    /// item (otherwise it would be written the legacy way).
    public init(parsing bytes: [UInt8]) throws(RawTransactionError) {
        var reader = ByteReader(bytes)
        do {
            let version = Int32(bitPattern: try reader.littleEndian(UInt32.self, "the version"))
            // BIP144: a zero where the input count would be is the marker; the flag must be 1.
            var segwit = false
            if reader.peek == 0x00 {
                _ = try reader.uint8("the marker")
                let flag = try reader.uint8("the flag")
                guard flag == 0x01 else { throw RawTransactionError("the segwit flag is \(flag), not 1") }
                segwit = true
            }
            // An input takes at least 41 bytes, an output at least 9.
            let inputCount = try reader.count("the input count", minimumSize: 41)
            guard inputCount > 0 else { throw RawTransactionError("it has no input") }
            var inputs: [Input] = []
            inputs.reserveCapacity(inputCount)
            for index in 0..<inputCount {
                let previous = try reader.bytes(32, "input \(index)'s previous txid")
                let previousIndex = try reader.littleEndian(UInt32.self, "input \(index)'s previous index")
                let scriptSig = try reader.lengthPrefixed("input \(index)'s scriptSig")
                let sequence = try reader.littleEndian(UInt32.self, "input \(index)'s sequence")
                inputs.append(Input(previousTxid: Hex.encode(previous.reversed()), previousIndex: previousIndex, scriptSig: scriptSig,
                                    sequence: sequence))
            }
            let outputCount = try reader.count("the output count", minimumSize: 9)
            var outputs: [Output] = []
            outputs.reserveCapacity(outputCount)
            for index in 0..<outputCount {
                let value = try reader.littleEndian(UInt64.self, "output \(index)'s value")
                guard value <= UInt64(Int64.max) else { throw RawTransactionError("output \(index)'s value \(value) is out of range") }
                outputs.append(Output(value: Int64(value), scriptPubKey: try reader.lengthPrefixed("output \(index)'s script")))
            }
            if segwit {
                for index in inputs.indices {
                    let items = try reader.count("input \(index)'s witness count", minimumSize: 1)
                    inputs[index].witness = try (0..<items).map { item throws(ByteReaderError) in
                        try reader.lengthPrefixed("input \(index)'s witness item \(item)")
                    }
                }
                guard inputs.contains(where: { !$0.witness.isEmpty }) else {
                    throw RawTransactionError("it is written with a segwit marker but has no witness")
                }
            }
            let lockTime = try reader.littleEndian(UInt32.self, "the lock time")
            guard reader.remaining == 0 else { throw RawTransactionError("\(reader.remaining) bytes follow its end") }
            self.init(version: version, inputs: inputs, outputs: outputs, lockTime: lockTime)
        } catch let error as ByteReaderError {
            throw RawTransactionError("\(error.what) \(error.detail) (byte \(error.offset) of \(bytes.count))")
        } catch let error as RawTransactionError {
            throw error
        } catch {
            throw RawTransactionError("\(error)")
        }
    }

    /// Reads a transaction written as hex.
    public init(hex: String) throws(RawTransactionError) {
        guard let bytes = Hex.decode(hex) else { throw RawTransactionError("it is not hex") }
        try self.init(parsing: bytes)
    }
}

/// A transaction's bytes that do not parse; the description says where and why.
public struct RawTransactionError: Error, Sendable, Hashable, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = "malformed transaction: \(description)" }
}
