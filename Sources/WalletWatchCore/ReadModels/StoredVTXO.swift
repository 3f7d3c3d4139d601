/// A VTXO with its source, for expiry warnings.
public struct StoredVTXO: Hashable, Sendable {
    public let source: String
    public let vtxo: VTXO

    public init(source: String, vtxo: VTXO) {
        self.source = source
        self.vtxo = vtxo
    }
}
