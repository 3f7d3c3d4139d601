import WalletWatchCore
import WalletWatchSources

/// BIP-329 wallet labels (the JSON-lines format of Sparrow, Bitcoin Keeper, Trezor Suite,
/// Cove and Liana): `{"type":"tx","ref":TXID,"label":"tag1, tag2"}`, one record a line.
///
/// walletwatch stores tags on txids, so it uses `tx` records only. As the BIP asks of an
/// importer, records of the types it does not store (`addr`, `pubkey`, `input`, `output`,
/// `xpub`, `spscan`) and of types the BIP does not define are skipped (and counted, by type);
/// a `tx` record without a label changes nothing; `origin` (which wallet of an export the label
/// came from) and `spendable` are not kept, since a tag belongs to the txid whatever wallet saw
/// it; a label longer than a tag name may be is cut, with a warning, rather than refused.
public enum BIP329 {
    /// The record types BIP-329 defines.
    public static let definedTypes: Set<String> = ["tx", "addr", "pubkey", "input", "output", "xpub", "spscan"]

    /// What a label file holds.
    public struct ParseResult: Sendable {
        /// `tx` records: txid -> tag names, merged when a txid appears on several lines.
        public var labels: [(txid: String, tags: [String])] = []
        /// `tx` records read, labelled or not.
        public var txRecords = 0
        /// Records of other types, skipped, by type (`addr`, `spscan`, or one the BIP does not define).
        public var skippedTypes: [String: Int] = [:]
        /// `tx` records without a label: the BIP says an importer leaves the labels as they are.
        public var unlabelled = 0
        /// Tag names cut to ``Name/maximumLength`` characters, with their line (from 1) and as written.
        public var truncated: [(line: Int, label: String)] = []
        /// Lines that are not valid records, with their number (from 1) and why.
        public var invalid: [(line: Int, reason: String)] = []

        /// Records of other types, skipped.
        public var otherTypes: Int { skippedTypes.values.reduce(0, +) }
    }

    /// Parses a label file. Nothing is thrown: invalid lines are listed with their number.
    public static func parse(_ text: String) -> ParseResult {
        var result = ParseResult()
        var order: [String] = []
        var tagsByTxid: [String: [String]] = [:]
        // "\r\n" is one Character in Swift, not equal to "\n": files written on Windows end
        // their lines with it.
        let lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }
        for (offset, line) in lines.enumerated() {
            var content = String(line)
            if offset == 0, content.hasPrefix("\u{FEFF}") { content.removeFirst() }
            if content.hasSuffix("\r") { content.removeLast() }
            guard !content.trimmingSpaces.isEmpty else { continue }
            do {
                let record = try JSONReader.read(Array(content.utf8), readRecord)
                guard record.type == "tx" else { result.skippedTypes[record.type, default: 0] += 1; continue }
                result.txRecords += 1
                guard let label = record.label, !label.trimmingSpaces.isEmpty else { result.unlabelled += 1; continue }
                var names: [String] = []
                var cut: [String] = []
                for part in label.split(separator: ",") where !String(part).trimmingSpaces.isEmpty {
                    var name = String(part).trimmingSpaces
                    if name.count > Name.maximumLength {
                        cut.append(name)
                        name = String(name.prefix(Name.maximumLength)).trimmingSpaces
                    }
                    names.append(try TagRules.name(name))
                }
                result.truncated += cut.map { (offset + 1, $0) }
                if tagsByTxid[record.ref] == nil { order.append(record.ref) }
                for name in names where !(tagsByTxid[record.ref] ?? []).contains(where: { Name.key($0) == Name.key(name) }) {
                    tagsByTxid[record.ref, default: []].append(name)
                }
            } catch {
                result.invalid.append((offset + 1, "\(error)"))
            }
        }
        result.labels = order.map { ($0, tagsByTxid[$0] ?? []) }
        return result
    }

    private static func readRecord(_ reader: inout JSONReader) throws -> (type: String, ref: String, label: String?) {
        var type, ref, label: String?
        try reader.readObject { reader, key in
            if key.is("type") { type = try reader.readString() }
            else if key.is("ref") { ref = try reader.readString() }
            else if key.is("label") { label = try reader.readOptionalString() }
            else { try reader.skipValue() }
        }
        guard let type else { throw reader.missing("type") }
        guard let ref, !ref.isEmpty else { throw reader.missing("ref") }
        return (type, ref, label)
    }

    /// One `tx` record a line for each tagged txid, its tags joined with ", ".
    public static func export(_ labels: [(txid: String, tags: [String])]) -> String {
        labels.map { txid, tags in
            JSONValue.object(["type": "tx", "ref": .string(txid), "label": .string(tags.joined(separator: ", "))]).compact + "\n"
        }.joined()
    }
}
