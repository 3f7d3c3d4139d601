/// A Bitcoin transaction: version, inputs, outputs, lock time, and each input's witness
/// (BIP141, BIP144). walletwatch reads transactions (an Electrum server sends them raw, see
/// `RawTransaction(parsing:)`); the simulator builds them from parts and needs their real txids so
/// that wallets that check them (BDK, ElectrumX) accept its chain.
public struct RawTransaction: Sendable, Hashable {
    /// An input: the output it spends and its unlocking script (empty for segwit spends), with
    /// its witness stack (empty for legacy spends).
    public struct Input: Sendable, Hashable {
        /// The txid of the spent output's transaction, as written (display order, hex).
        public var previousTxid: String
        /// The spent output's index.
        public var previousIndex: UInt32
        /// The scriptSig.
        public var scriptSig: [UInt8]
        /// nSequence.
        public var sequence: UInt32
        /// The witness stack's items, bottom first (BIP141); not part of the txid.
        public var witness: [[UInt8]]

        /// An input spending `previousTxid:previousIndex`.
        public init(previousTxid: String, previousIndex: UInt32, scriptSig: [UInt8] = [], sequence: UInt32 = 0xffff_fffd,
                    witness: [[UInt8]] = []) {
            self.previousTxid = previousTxid
            self.previousIndex = previousIndex
            self.scriptSig = scriptSig
            self.sequence = sequence
            self.witness = witness
        }

        /// Whether it spends nothing: a coinbase input (previous txid all zeros, index 0xffffffff).
        public var isCoinbase: Bool {
            previousIndex == 0xffff_ffff && previousTxid.utf8.allSatisfy { $0 == UInt8(ascii: "0") }
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

    /// Whether any input carries a witness (then the transaction is written in BIP144's form).
    public var hasWitness: Bool { inputs.contains { !$0.witness.isEmpty } }

    /// The serialization a node relays and a block holds: BIP144's (marker 0x00, flag 0x01, and
    /// a witness stack per input after the outputs) when any input has a witness, else the
    /// legacy one; nil when an input's previous txid is malformed.
    public var serialized: [UInt8]? {
        guard hasWitness else { return serializedWithoutWitness }
        guard let legacy = serializedWithoutWitness else { return nil }
        // The legacy form is version (4) + inputs and outputs + lock time (4): the marker and flag
        // go after the version and the witnesses before the lock time.
        var bytes = Array(legacy[..<4]) + [0x00, 0x01] + legacy[4..<(legacy.count - 4)]
        for input in inputs {
            bytes += Self.compactSize(input.witness.count)
            for item in input.witness { bytes += Self.compactSize(item.count) + item }
        }
        bytes += legacy[(legacy.count - 4)...]
        return bytes
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

extension RawTransaction {
    /// The most weight a block, and so a transaction, can have (BIP141's MAX_BLOCK_WEIGHT).
    public static let maximumWeight = 4_000_000
}
