import Foundation

/// Writes `Encodable` values as compact JSON with each object's keys in the order they are
/// encoded (a type's `CodingKeys` order), and makes a body-editing fault's edit on the way.
///
/// Not `JSONEncoder`, for two reasons. On Linux it writes an object's keys in hash order,
/// which changes from process to process, while barkd (serde) and electrs write them in
/// declaration order and the faults are defined by document order ("the first key", "the
/// first integer"). And making the edit while writing means no served body is ever parsed.
/// The control API and scenario files, where order does not matter, use `JSONEncoder`.
///
/// Values are appended to ``bytes``, so a long array can be written element by element and
/// taken in chunks. Containers must be used the way synthesized `encode(to:)` uses them: each
/// one filled before its parent goes on (the writer closes a container when its parent writes
/// again or when the value that opened it returns).
final class WireEncoder {
    // `@exclusivity(unchecked)`: these are touched several times for every value of a long
    // history, and the runtime's exclusivity checks cost a fifth of the encoding time. They
    // are safe to skip: an encoder belongs to one task, and no access overlaps another (each
    // method finishes its change before it calls anything that could touch the same property).

    /// The JSON written so far.
    @exclusivity(unchecked) private(set) var bytes: [UInt8] = []
    /// The edit still to make (`wrongType`, `negativeAmount` or `missingField`); nil once made.
    @exclusivity(unchecked) private(set) var pendingEdit: FaultKind?
    /// The objects and arrays open, outermost first.
    @exclusivity(unchecked) private var open: [Container] = []
    /// The key just written; the next value is its member's.
    @exclusivity(unchecked) private var memberKey: String?
    /// The member dropped by `missingField`, cut out once its value is complete.
    @exclusivity(unchecked) private var dropped: DroppedMember?

    private struct Container {
        let isObject: Bool
        var count = 0
    }

    private struct DroppedMember {
        let start: Int
        let level: Int
    }

    /// An encoder that makes `edit` (a body-editing fault) once, in the first place it applies.
    init(edit: FaultKind? = nil, capacity: Int = 1024) {
        pendingEdit = edit?.isBodyEdit == true ? edit : nil
        bytes.reserveCapacity(capacity)
    }

    /// `value` as one JSON text, with `edit` made when it applies. A `missingField` edit that
    /// finds no key empties the body (what is left of a bare value without its only part).
    static func encode(_ value: some Encodable, edit: FaultKind? = nil) throws -> [UInt8] {
        let encoder = WireEncoder(edit: edit)
        try encoder.encode(value)
        return encoder.pendingEdit == .missingField ? [] : encoder.bytes
    }

    /// Appends `value`.
    func encode(_ value: some Encodable) throws { try write(value) }

    /// Appends framing that is already JSON (`[`, `,`, `]` around streamed elements).
    func append(raw: String) {
        bytes.append(contentsOf: raw.utf8)
    }

    /// Hands over the bytes written so far and starts an empty buffer.
    func take() -> [UInt8] {
        defer { bytes.removeAll(keepingCapacity: true) }
        return bytes
    }

    // MARK: structure

    fileprivate func openContainer(isObject: Bool) -> Int {
        memberKey = nil
        bytes.append(isObject ? UInt8(ascii: "{") : UInt8(ascii: "["))
        open.append(Container(isObject: isObject))
        return open.count - 1
    }

    /// Closes the containers nested deeper than `level` (their values are complete).
    private func close(above level: Int) {
        while open.count > level + 1 {
            cutDroppedMember(at: open.count - 1)
            bytes.append(open.removeLast().isObject ? UInt8(ascii: "}") : UInt8(ascii: "]"))
        }
        cutDroppedMember(at: level)
    }

    private func cutDroppedMember(at level: Int) {
        guard let member = dropped, member.level == level else { return }
        bytes.removeSubrange(member.start...)
        dropped = nil
    }

    /// Starts the member `key` of the object at `level`.
    fileprivate func member(_ key: some CodingKey, at level: Int) {
        close(above: level)
        if pendingEdit == .missingField {
            // Written as usual, then cut out when the object goes on: no comma, no count.
            pendingEdit = nil
            dropped = DroppedMember(start: bytes.count, level: level)
        } else {
            if open[level].count > 0 { bytes.append(UInt8(ascii: ",")) }
            open[level].count += 1
        }
        let name = key.stringValue
        quoted(name)
        bytes.append(UInt8(ascii: ":"))
        memberKey = name
    }

    /// Starts the next element of the array at `level`.
    fileprivate func element(at level: Int) {
        close(above: level)
        if open[level].count > 0 { bytes.append(UInt8(ascii: ",")) }
        open[level].count += 1
        memberKey = nil
    }

    // MARK: values

    fileprivate func write<T: Encodable>(_ value: T) throws {
        // Type comparisons, not casts: this runs for every nested value of a long history.
        if T.self == Decimal.self, let decimal = value as? Decimal {
            number(decimal.description)
        } else if T.self == SimTime.self, let time = value as? SimTime {
            memberKey = nil
            bytes.append(UInt8(ascii: "\""))
            time.append(to: &bytes)
            bytes.append(UInt8(ascii: "\""))
        } else {
            let level = open.count - 1
            try value.encode(to: Encoding(writer: self))
            close(above: level)
        }
    }

    fileprivate func null() {
        memberKey = nil
        bytes.append(contentsOf: "null".utf8)
    }

    fileprivate func bool(_ value: Bool) {
        memberKey = nil
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
    }

    fileprivate func string(_ value: String) {
        memberKey = nil
        quoted(value)
    }

    fileprivate func integer(_ value: some BinaryInteger) {
        guard pendingEdit == nil else { return number(String(value)) }
        memberKey = nil
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        // Digits written backwards, then reversed in place: no String per number.
        var magnitude = UInt64(value.magnitude)
        let start = bytes.count
        repeat {
            bytes.append(48 + UInt8(magnitude % 10))
            magnitude /= 10
        } while magnitude > 0
        bytes[start...].reverse()
    }

    fileprivate func floatingPoint(_ value: Double) throws {
        guard value.isFinite else {
            throw EncodingError.invalidValue(value, EncodingError.Context(codingPath: [], debugDescription: "\(value) is not a JSON number"))
        }
        number(String(value))
    }

    /// A number given as JSON text, where the number edits apply.
    private func number(_ text: String) {
        let key = memberKey
        memberKey = nil
        switch pendingEdit {
        case .wrongType where !text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }):
            pendingEdit = nil
            quoted(text)
        case .negativeAmount where open.isEmpty:
            // A bare number (Esplora's tip height) counts as an amount.
            pendingEdit = nil
            bytes.append(contentsOf: WireEncoder.negated(text).utf8)
        case .negativeAmount where key.map(WireEncoder.isUnsignedAmount) == true && !text.hasPrefix("-"):
            pendingEdit = nil
            bytes.append(contentsOf: WireEncoder.negated(text).utf8)
        default:
            bytes.append(contentsOf: text.utf8)
        }
    }

    private func quoted(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            // Nearly every string (ids, addresses, hex) needs no escaping: copy it whole.
            guard utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else {
                return bytes.append(contentsOf: utf8)
            }
            for byte in utf8 {
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), byte])
                case 0x0A: bytes.append(contentsOf: Array("\\n".utf8))
                case 0x0D: bytes.append(contentsOf: Array("\\r".utf8))
                case 0x09: bytes.append(contentsOf: Array("\\t".utf8))
                case 0..<0x20: bytes.append(contentsOf: Array(String(format: "\\u%04x", byte).utf8))
                default: bytes.append(byte)
                }
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Keys whose values the APIs promise to be >= 0 (signed balance changes are not among them).
    static func isUnsignedAmount(_ key: String) -> Bool {
        if key.hasSuffix("_sat") {
            return !["intended_balance_sat", "effective_balance_sat", "balance_change_sat"].contains(key)
        }
        if ["value", "fee", "funded_txo_sum", "spent_txo_sum"].contains(key) { return true }
        // Prices: CoinGecko's `usd`, mempool's `USD`.
        return key.count == 3 && key.allSatisfy(\.isLetter)
    }

    private static func negated(_ text: String) -> String {
        if text.hasPrefix("-") { return text }
        if text.allSatisfy({ $0 == "0" || $0 == "." }) { return "-1" }
        return "-" + text
    }
}

/// The `Encoder` handed to each value's `encode(to:)`.
private struct Encoding: Encoder {
    let writer: WireEncoder
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(ObjectContainer(writer: writer, level: writer.openContainer(isObject: true)))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        ArrayContainer(writer: writer, level: writer.openContainer(isObject: false))
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { ValueContainer(writer: writer) }
}

// The keyed and unkeyed containers take every value through one generic method, which Swift
// accepts for the per-type requirements too; the value's own `encode(to:)` reaches a
// ``ValueContainer``, which writes it.

private struct ObjectContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let writer: WireEncoder
    let level: Int
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil(forKey key: Key) throws {
        writer.member(key, at: level)
        writer.null()
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        writer.member(key, at: level)
        try writer.write(value)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        superEncoder(forKey: key).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        superEncoder(forKey: key).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { Encoding(writer: writer) }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        writer.member(key, at: level)
        return Encoding(writer: writer)
    }
}

private struct ArrayContainer: UnkeyedEncodingContainer {
    let writer: WireEncoder
    let level: Int
    var codingPath: [any CodingKey] { [] }
    private(set) var count = 0

    init(writer: WireEncoder, level: Int) {
        self.writer = writer
        self.level = level
    }

    private mutating func next() {
        writer.element(at: level)
        count += 1
    }

    mutating func encodeNil() throws {
        next()
        writer.null()
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        next()
        try writer.write(value)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        superEncoder().container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { superEncoder().unkeyedContainer() }

    mutating func superEncoder() -> any Encoder {
        next()
        return Encoding(writer: writer)
    }
}

/// One value in the slot its parent has just opened (or the whole document).
private struct ValueContainer: SingleValueEncodingContainer {
    let writer: WireEncoder
    var codingPath: [any CodingKey] { [] }

    func encodeNil() throws { writer.null() }
    func encode(_ value: Bool) throws { writer.bool(value) }
    func encode(_ value: String) throws { writer.string(value) }
    func encode(_ value: Double) throws { try writer.floatingPoint(value) }
    func encode(_ value: Float) throws { try writer.floatingPoint(Double(value)) }
    func encode(_ value: Int) throws { writer.integer(value) }
    func encode(_ value: Int8) throws { writer.integer(value) }
    func encode(_ value: Int16) throws { writer.integer(value) }
    func encode(_ value: Int32) throws { writer.integer(value) }
    func encode(_ value: Int64) throws { writer.integer(value) }
    func encode(_ value: UInt) throws { writer.integer(value) }
    func encode(_ value: UInt8) throws { writer.integer(value) }
    func encode(_ value: UInt16) throws { writer.integer(value) }
    func encode(_ value: UInt32) throws { writer.integer(value) }
    func encode(_ value: UInt64) throws { writer.integer(value) }
    func encode<T: Encodable>(_ value: T) throws { try writer.write(value) }
}
