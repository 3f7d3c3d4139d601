extension RawTransaction {
    /// The wtxid (BIP141): double SHA-256 of the serialization with witnesses, bytes reversed, as
    /// hex; the txid for a transaction without witnesses; nil when an input's txid is malformed.
    public var wtxid: String? {
        serialized.map { Hex.encode(Hashes.doubleSHA256($0).reversed()) }
    }

    /// The weight (BIP141): three times the size without witnesses plus the full size; nil when
    /// an input's txid is malformed.
    public var weight: Int? {
        guard let base = serializedWithoutWitness?.count, let total = serialized?.count else { return nil }
        return base * 3 + total
    }
}
