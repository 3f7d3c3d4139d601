/// The parts of a transaction its txid commits to: version, inputs, outputs and lock time (BIP141:
/// everything but the witness). walletwatch only reads transactions; the simulator builds them
/// from parts and needs their real txids so that wallets that check them (BDK) accept its chain.
public struct RawTransaction: Sendable, Hashable {
    /// An input: the output it spends and its unlocking script (empty for segwit spends).
    public struct Input: Sendable, Hashable {
        /// The txid of the spent output's transaction, as written (display order, hex).
        public var previousTxid: String
        /// The spent output's index.
        public var previousIndex: UInt32
        /// The scriptSig.
        public var scriptSig: [UInt8]
        /// nSequence.
        public var sequence: UInt32

        /// An input spending `previousTxid:previousIndex`.
        public init(previousTxid: String, previousIndex: UInt32, scriptSig: [UInt8] = [], sequence: UInt32 = 0xffff_fffd) {
            self.previousTxid = previousTxid
            self.previousIndex = previousIndex
            self.scriptSig = scriptSig
            self.sequence = sequence
        }
    }

    /// An output: its value in sats and the script it pays.
    public struct Output: Sendable, Hashable {
        /// Sats.
        public var value: Int64
        /// The scriptPubKey.
        public var scriptPubKey: [UInt8]

        /// An output paying `value` to `scriptPubKey`.
        public init(value: Int64, scriptPubKey: [UInt8]) {
            self.value = value
            self.scriptPubKey = scriptPubKey
        }
    }

    /// nVersion.
    public var version: Int32
    /// The inputs in order.
    public var inputs: [Input]
    /// The outputs in order.
    public var outputs: [Output]
    /// nLockTime.
    public var lockTime: UInt32

    /// A transaction made of these parts.
    public init(version: Int32 = 2, inputs: [Input], outputs: [Output], lockTime: UInt32 = 0) {
        self.version = version
        self.inputs = inputs
        self.outputs = outputs
        self.lockTime = lockTime
    }

    /// The legacy serialization (without marker, flag and witness), which the txid hashes; nil
    /// when an input's previous txid is not 64 hex digits.
    public var serializedWithoutWitness: [UInt8]? {
        var bytes = [UInt8]()
        bytes += Self.littleEndian(UInt32(bitPattern: version))
        bytes += Self.compactSize(inputs.count)
        for input in inputs {
            guard input.previousTxid.utf8.count == 64, let txid = Hex.decode(input.previousTxid) else { return nil }
            // Txids are written in the reverse of their byte order.
            bytes += txid.reversed()
            bytes += Self.littleEndian(input.previousIndex)
            bytes += Self.compactSize(input.scriptSig.count) + input.scriptSig
            bytes += Self.littleEndian(input.sequence)
        }
        bytes += Self.compactSize(outputs.count)
        for output in outputs {
            bytes += Self.littleEndian(UInt64(bitPattern: output.value))
            bytes += Self.compactSize(output.scriptPubKey.count) + output.scriptPubKey
        }
        bytes += Self.littleEndian(lockTime)
        return bytes
    }

    /// The txid: double SHA-256 of the legacy serialization, bytes reversed, as hex; nil when an
    /// input's previous txid is malformed.
    public var txid: String? {
        serializedWithoutWitness.map { Hex.encode(Hashes.doubleSHA256($0).reversed()) }
    }

    static func littleEndian<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
        withUnsafeBytes(of: value.littleEndian) { Array($0) }
    }

    /// Bitcoin's CompactSize: one byte below 0xfd, else a marker and 2, 4 or 8 bytes.
    static func compactSize(_ count: Int) -> [UInt8] {
        switch count {
        case ..<0xfd: [UInt8(count)]
        case ...0xffff: [0xfd] + littleEndian(UInt16(count))
        case ...0xffff_ffff: [0xfe] + littleEndian(UInt32(count))
        default: [0xff] + littleEndian(UInt64(count))
        }
    }
}
