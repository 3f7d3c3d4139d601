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

    /// The longest line read: a record is one JSON object of a few hundred bytes, so a longer
    /// line is refused by its number instead of being kept in memory and parsed.
    public static let maximumLineBytes = 1 << 20

    /// What one line of a label file holds.
    public enum Record: Sendable, Equatable {
        /// An empty line (or one of spaces).
        case blank
        /// A labelled `tx` record: its txid and tag names, and the names that were cut to
        /// ``Name/maximumLength`` characters, as written.
        case tx(ref: String, tags: [String], cut: [String])
        /// A `tx` record without a label: the BIP says an importer leaves the labels as they are.
        case unlabelled
        /// A record of another type, skipped (`addr`, `spscan`, or one the BIP does not define).
        case other(type: String)
        /// Not a valid record, and why.
        case invalid(String)
    }

    /// Reads one line (its bytes without the line feed; a carriage return before it and a
    /// byte-order mark at the start of the first line are allowed). Bytes that are not UTF-8
    /// make the line invalid, naming where they are.
    public static func record(_ line: UnsafeRawBufferPointer, isFirstLine: Bool) -> Record {
        // Offsets rather than slices: this runs for every line of files of millions of lines.
        var start = 0, end = line.count
        if isFirstLine, end >= 3, line[0] == 0xEF, line[1] == 0xBB, line[2] == 0xBF { start = 3 }
        if end > start, line[end - 1] == 0x0D { end -= 1 }
        let bytes = UnsafeRawBufferPointer(rebasing: line[start..<end])
        if String(validating: bytes.assumingMemoryBound(to: UInt8.self), as: UTF8.self) == nil {
            let offset = firstInvalidUTF8(bytes) ?? 0
            return .invalid("not valid UTF-8 (the byte 0x\(String(bytes[offset], radix: 16, uppercase: true)) at byte \(offset + 1) of the line); save the file as UTF-8")
        }
        var first = 0
        while first < bytes.count, bytes[first] == 0x20 || bytes[first] == 0x09 { first += 1 }
        guard first < bytes.count else { return .blank }
        do {
            let record = try JSONReader.read(bytes, readRecord)
            guard record.type == "tx" else { return .other(type: record.type) }
            guard let label = record.label, !label.trimmingSpaces.isEmpty else { return .unlabelled }
            var names: [String] = []
            var keys: [String] = []
            var cut: [String] = []
            for part in label.split(separator: ",") {
                var name = String(part).trimmingSpaces
                guard !name.isEmpty else { continue }
                if name.count > Name.maximumLength {
                    cut.append(name)
                    name = String(name.prefix(Name.maximumLength)).trimmingSpaces
                }
                let valid = try TagRules.name(name)
                let key = Name.key(valid)
                if !keys.contains(key) {
                    names.append(valid)
                    keys.append(key)
                }
            }
            return .tx(ref: record.ref, tags: names, cut: cut)
        } catch {
            return .invalid("\(error)")
        }
    }

    /// The offset of the first byte that does not belong to valid UTF-8, if any.
    static func firstInvalidUTF8(_ bytes: UnsafeRawBufferPointer) -> Int? {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let scalar): offset += scalar.count
            case .emptyInput: return nil
            case .error: return offset
            }
        }
    }

    /// What a whole label file held (``parse(_:)``, for a text already in memory).
    public struct ParseResult: Sendable {
        /// `tx` records: txid -> tag names, merged when a txid appears on several lines.
        public var labels: [(txid: String, tags: [String])] = []
        /// `tx` records read, labelled or not.
        public var txRecords = 0
        /// Records of other types, skipped, by type.
        public var skippedTypes: [String: Int] = [:]
        /// `tx` records without a label.
        public var unlabelled = 0
        /// Tag names cut to ``Name/maximumLength`` characters, with their line (from 1) and as written.
        public var truncated: [(line: Int, label: String)] = []
        /// Lines that are not valid records, with their number (from 1) and why.
        public var invalid: [(line: Int, reason: String)] = []

        /// Records of other types, skipped.
        public var otherTypes: Int { skippedTypes.values.reduce(0, +) }
    }

    /// Parses a label file held in memory, line by line as ``record(_:isFirstLine:)`` reads
    /// them. Nothing is thrown: invalid lines are listed with their number. (`tag import`
    /// streams the file instead: see ``TagBook/importLabels(file:skipInvalid:)``.)
    public static func parse(_ text: String) -> ParseResult {
        var result = ParseResult()
        var order: [String] = []
        var tagsByTxid: [String: [String]] = [:]
        let lines = Array(text.utf8).split(separator: 0x0A, omittingEmptySubsequences: false)
        for (offset, line) in lines.enumerated() {
            switch Array(line).withUnsafeBytes({ Self.record($0, isFirstLine: offset == 0) }) {
            case .blank: break
            case .unlabelled:
                result.txRecords += 1
                result.unlabelled += 1
            case .other(let type): result.skippedTypes[type, default: 0] += 1
            case .invalid(let reason): result.invalid.append((offset + 1, reason))
            case .tx(let ref, let tags, let cut):
                result.txRecords += 1
                result.truncated += cut.map { (offset + 1, $0) }
                if tagsByTxid[ref] == nil { order.append(ref) }
                for name in tags where !(tagsByTxid[ref] ?? []).contains(where: { Name.key($0) == Name.key(name) }) {
                    tagsByTxid[ref, default: []].append(name)
                }
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
