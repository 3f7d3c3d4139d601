import Foundation
import WalletWatchCore

/// What went wrong reading JSON, and where (`[3].time.created_at`).
public struct JSONReadError: Error, Sendable, Equatable, CustomStringConvertible {
    public let path: String
    public let problem: String

    public var description: String { path.isEmpty ? problem : "field \(path): \(problem)" }
}

/// A strict, schema-driven JSON reader over a complete UTF-8 buffer.
///
/// Decoders walk the document with it (`readObject`, `readInt64`, ...) instead of building a
/// tree, so decoding allocates only what it keeps. Every mismatch (a missing or mistyped
/// field, a fraction where an integer belongs, nesting deeper than ``maximumDepth``) becomes a
/// ``JSONReadError`` naming the field's path.
public struct JSONReader {
    /// Deeper nesting is refused: walletwatch's sources never need more, and a hostile
    /// document must not be able to exhaust the stack.
    public static let maximumDepth = 64

    private let bytes: UnsafeRawBufferPointer
    private var index = 0
    private var path: [PathComponent] = []

    private enum PathComponent {
        case key(UnsafeRawBufferPointer)
        case escapedKey(String)
        case index(Int)
    }

    /// A reader over `bytes`, which must stay valid while it is used.
    public init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
        path.reserveCapacity(8)
    }

    /// Reads the whole of `bytes` with `body`, then requires that nothing but whitespace follows.
    public static func read<T>(_ bytes: UnsafeRawBufferPointer, _ body: (inout JSONReader) throws -> T) throws -> T {
        var reader = JSONReader(bytes)
        let value = try body(&reader)
        reader.skipWhitespace()
        guard reader.index == bytes.count else { throw reader.error("unexpected data after the end of the document") }
        return value
    }

    /// Reads `bytes` (an array or a `[UInt8]`) with `body`.
    public static func read<T>(_ bytes: [UInt8], _ body: (inout JSONReader) throws -> T) throws -> T {
        try bytes.withUnsafeBytes { try read($0, body) }
    }

    // MARK: - Kinds

    /// The kind of the next value.
    public enum Kind: Sendable { case object, array, string, number, bool, null, end }

    /// The kind of the next value, without consuming it.
    public mutating func peekKind() -> Kind {
        skipWhitespace()
        guard index < bytes.count else { return .end }
        switch bytes[index] {
        case UInt8(ascii: "{"): return .object
        case UInt8(ascii: "["): return .array
        case UInt8(ascii: "\""): return .string
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return .bool
        case UInt8(ascii: "n"): return .null
        default: return .number
        }
    }

    // MARK: - Containers

    /// Reads an object, calling `body` with each key while the reader is at its value; `body`
    /// must consume the value (read it or ``skipValue()``).
    public mutating func readObject(_ body: (inout JSONReader, JSONKey) throws -> Void) throws {
        try expectContainer(UInt8(ascii: "{"), "an object")
        skipWhitespace()
        if consume(UInt8(ascii: "}")) { return leaveContainer() }
        while true {
            skipWhitespace()
            let key = try readKey()
            skipWhitespace()
            guard consume(UInt8(ascii: ":")) else { throw error("expected ':' after a key") }
            path.append(key.escaped.map(PathComponent.escapedKey) ?? .key(key.raw))
            try body(&self, key)
            path.removeLast()
            skipWhitespace()
            if consume(UInt8(ascii: ",")) { continue }
            if consume(UInt8(ascii: "}")) { return leaveContainer() }
            throw error("expected ',' or '}' in an object")
        }
    }

    /// Reads an array, calling `body` with each element's position while the reader is at it.
    public mutating func readArray(_ body: (inout JSONReader, Int) throws -> Void) throws {
        try expectContainer(UInt8(ascii: "["), "an array")
        skipWhitespace()
        if consume(UInt8(ascii: "]")) { return leaveContainer() }
        var position = 0
        while true {
            path.append(.index(position))
            try body(&self, position)
            path.removeLast()
            position += 1
            skipWhitespace()
            if consume(UInt8(ascii: ",")) { continue }
            if consume(UInt8(ascii: "]")) { return leaveContainer() }
            throw error("expected ',' or ']' in an array")
        }
    }

    private var depth = 0

    private mutating func expectContainer(_ opening: UInt8, _ name: String) throws {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == opening else { throw typeError(expected: name) }
        guard depth < JSONReader.maximumDepth else {
            throw error("nesting deeper than \(JSONReader.maximumDepth) levels")
        }
        depth += 1
        index += 1
    }

    private mutating func leaveContainer() { depth -= 1 }

    // MARK: - Scalars

    /// An integer (no fraction, no exponent) that fits in 64 bits.
    public mutating func readInt64() throws -> Int64 {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "-") || isDigit(bytes[index]) else {
            throw typeError(expected: "an integer")
        }
        let start = index
        let negative = bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { throw error("malformed number") }
        if bytes[index] == UInt8(ascii: "0"), index + 1 < bytes.count, isDigit(bytes[index + 1]) {
            throw error("malformed number (leading zero)")
        }
        var magnitude: UInt64 = 0
        while index < bytes.count, isDigit(bytes[index]) {
            let (times10, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(UInt64(bytes[index] &- 48))
            guard !overflow1, !overflow2 else { throw error("the integer is too large") }
            magnitude = sum
            index += 1
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") || bytes[index] | 0x20 == UInt8(ascii: "e") {
            index = start
            throw error("expected an integer, found a number with a fraction or exponent")
        }
        if negative {
            guard magnitude <= UInt64(Int64.max) + 1 else { throw error("the integer is too large") }
            return magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude)
        }
        guard magnitude <= UInt64(Int64.max) else { throw error("the integer is too large") }
        return Int64(magnitude)
    }

    /// An integer that must not be negative (the API's `minimum: 0`).
    public mutating func readNonNegativeInt64() throws -> Int64 {
        let value = try readInt64()
        guard value >= 0 else { throw error("must not be negative, got \(value)") }
        return value
    }

    /// An amount in satoshis: not negative unless `signed`, and at most 21 million BTC in size
    /// (``BitcoinSupply``): a source reporting more is wrong, and its figure would overflow sums.
    public mutating func readSats(signed: Bool = false) throws -> Int64 {
        let value = signed ? try readInt64() : try readNonNegativeInt64()
        guard value.magnitude <= BitcoinSupply.maximumSats.magnitude else {
            throw error("\(value) sat is more than the 21 million BTC that can exist")
        }
        return value
    }

    /// A satoshi amount (as ``readSats(signed:)``, never negative) or null.
    public mutating func readOptionalSats() throws -> Int64? {
        if readNull() { return nil }
        return try readSats()
    }

    /// An integer or null.
    public mutating func readOptionalInt64(nonNegative: Bool = false) throws -> Int64? {
        if readNull() { return nil }
        return nonNegative ? try readNonNegativeInt64() : try readInt64()
    }

    /// A number exactly as written (for prices), as a decimal; never through a binary float.
    public mutating func readDecimal() throws -> Decimal {
        skipWhitespace()
        let start = index
        guard index < bytes.count, bytes[index] == UInt8(ascii: "-") || isDigit(bytes[index]) else {
            throw typeError(expected: "a number")
        }
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        // JSON's grammar: an integer part without a leading zero, a fraction and an exponent
        // each with at least one digit.
        var wellFormed = true
        let integerStart = index
        while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        let integerDigits = index - integerStart
        if integerDigits == 0 || (integerDigits > 1 && bytes[integerStart] == UInt8(ascii: "0")) { wellFormed = false }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            let fractionStart = index
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            if index == fractionStart { wellFormed = false }
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            let exponentStart = index
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            if index == exponentStart { wellFormed = false }
        }
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard wellFormed else {
            index = start
            throw error("malformed number \(JSONReader.shown(text))")
        }
        // Valid JSON that a decimal cannot hold (an exponent beyond about ±128) is out of
        // range, not malformed: say which.
        guard let value = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")), !value.isNaN else {
            index = start
            throw error("the number \(JSONReader.shown(text)) is out of the range walletwatch reads (a decimal of up to 38 digits, its exponent within ±127)")
        }
        return value
    }

    /// `true` or `false`.
    public mutating func readBool() throws -> Bool {
        skipWhitespace()
        if consumeLiteral("true") { return true }
        if consumeLiteral("false") { return false }
        throw typeError(expected: "true or false")
    }

    /// Consumes `null` and returns true, or returns false without consuming anything.
    public mutating func readNull() -> Bool {
        skipWhitespace()
        return consumeLiteral("null")
    }

    /// A string, with escapes decoded.
    public mutating func readString() throws -> String {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw typeError(expected: "a string") }
        let (raw, escaped) = try scanString()
        return escaped ?? String(decoding: raw, as: UTF8.self)
    }

    /// A string or null.
    public mutating func readOptionalString() throws -> String? {
        if readNull() { return nil }
        return try readString()
    }

    /// Passes over one value of any kind (within the depth limit).
    public mutating func skipValue() throws {
        switch peekKind() {
        case .object: try readObject { reader, _ in try reader.skipValue() }
        case .array: try readArray { reader, _ in try reader.skipValue() }
        case .string: _ = try scanString()
        case .bool: _ = try readBool()
        case .null: _ = readNull()
        case .number: _ = try readDecimal()
        case .end: throw error("unexpected end of the document")
        }
    }

    /// Passes over one value and returns its bytes as they were written, to be read later by
    /// whoever knows what it should be (a JSON-RPC reply's `result`, before its request is known).
    public mutating func readRawValue() throws -> [UInt8] {
        skipWhitespace()
        let start = index
        try skipValue()
        return Array(bytes[start..<index])
    }

    /// A required field that was not there: the error to throw after reading an object.
    public func missing(_ field: String) -> JSONReadError {
        JSONReadError(path: pathText(), problem: "required field '\(field)' is missing")
    }

    /// A value a source sent, as an error message may show it: quoted, at most 40 characters,
    /// with every character a terminal would obey written as its escape (``DisplaySafety``). A
    /// hostile source must not be able to break the one-line error, or to send escape sequences
    /// to the terminal or log that shows it.
    public static func shown(_ text: String) -> String {
        "'" + visible(text) + "'"
    }

    /// `text` cut to 40 characters (with `…`) and escaped as ``DisplaySafety`` does.
    static func visible(_ text: String) -> String {
        DisplaySafety.escaped(text.count > 40 ? String(text.prefix(40)) + "…" : text)
    }

    /// A source's text that walletwatch stores and shows (a counterparty): unchanged, except
    /// that the characters ``DisplaySafety`` escapes are stored spelled out, so that no stored
    /// value can carry a terminal escape sequence or break a table's line wherever it is shown.
    public static func printable(_ text: String) -> String {
        DisplaySafety.escaped(text)
    }

    /// An error at the current position about the current field.
    public func error(_ problem: String) -> JSONReadError {
        JSONReadError(path: pathText(), problem: index >= bytes.count && problem.hasPrefix("expected") ? "\(problem) (the document ends early)" : problem)
    }

    // MARK: - Internals

    private mutating func readKey() throws -> JSONKey {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
            throw error("expected a quoted key in an object")
        }
        let (raw, escaped) = try scanString()
        return JSONKey(raw: raw, escaped: escaped)
    }

    /// Scans a string starting at its opening quote. Returns the raw bytes between the quotes,
    /// and the decoded text when it contained escapes.
    private mutating func scanString() throws -> (UnsafeRawBufferPointer, String?) {
        index += 1
        let start = index
        var hasEscapes = false
        while index < bytes.count {
            // Past the plain bytes in one go; then the quote, an escape or a control character.
            index = JSONStringScan.stop(in: bytes.baseAddress!, from: index, to: bytes.count, controls: true)
            guard index < bytes.count else { break }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let raw = UnsafeRawBufferPointer(rebasing: bytes[start..<index])
                index += 1
                return (raw, hasEscapes ? try decodeEscapes(raw) : nil)
            }
            if byte == UInt8(ascii: "\\") {
                hasEscapes = true
                index += 2
                continue
            }
            guard byte >= 0x20 else { throw error("a control character inside a string") }
            index += 1
        }
        throw error("a string is not closed (the document ends early)")
    }

    private func decodeEscapes(_ raw: UnsafeRawBufferPointer) throws -> String {
        var scalars = String.UnicodeScalarView()
        var utf8: [UInt8] = []
        var position = 0
        func flush() {
            if !utf8.isEmpty {
                scalars.append(contentsOf: String(decoding: utf8, as: UTF8.self).unicodeScalars)
                utf8.removeAll(keepingCapacity: true)
            }
        }
        func hex4(at offset: Int) throws -> UInt32 {
            guard offset + 4 <= raw.count else { throw error("a truncated \\u escape") }
            var value: UInt32 = 0
            for byte in raw[offset..<offset + 4] {
                guard let digit = hexValue(byte) else { throw error("a malformed \\u escape") }
                value = value << 4 | UInt32(digit)
            }
            return value
        }
        while position < raw.count {
            let byte = raw[position]
            guard byte == UInt8(ascii: "\\") else {
                utf8.append(byte)
                position += 1
                continue
            }
            guard position + 1 < raw.count else { throw error("a string ends inside an escape") }
            flush()
            let escape = raw[position + 1]
            position += 2
            switch escape {
            case UInt8(ascii: "\""): scalars.append("\"")
            case UInt8(ascii: "\\"): scalars.append("\\")
            case UInt8(ascii: "/"): scalars.append("/")
            case UInt8(ascii: "b"): scalars.append("\u{08}")
            case UInt8(ascii: "f"): scalars.append("\u{0C}")
            case UInt8(ascii: "n"): scalars.append("\n")
            case UInt8(ascii: "r"): scalars.append("\r")
            case UInt8(ascii: "t"): scalars.append("\t")
            case UInt8(ascii: "u"):
                var code = try hex4(at: position)
                position += 4
                if (0xD800...0xDBFF).contains(code), position + 6 <= raw.count,
                   raw[position] == UInt8(ascii: "\\"), raw[position + 1] == UInt8(ascii: "u") {
                    let low = try hex4(at: position + 2)
                    if (0xDC00...0xDFFF).contains(low) {
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                        position += 6
                    }
                }
                scalars.append(Unicode.Scalar(code) ?? "\u{FFFD}")
            default:
                throw error("an unknown escape '\\\(Character(Unicode.Scalar(escape)))'")
            }
        }
        flush()
        return String(scalars)
    }

    private func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 48...57: byte - 48
        case 65...70: byte - 55
        case 97...102: byte - 87
        default: nil
        }
    }

    private mutating func consume(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    private mutating func consumeLiteral(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count,
              memcmp(bytes.baseAddress! + index, literal.utf8Start, count) == 0
        else { return false }
        index += count
        return true
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte &- 48 < 10 }

    private mutating func typeError(expected: String) -> JSONReadError {
        let found: String
        switch peekKind() {
        case .object: found = "an object"
        case .array: found = "an array"
        case .string: found = "a string"
        case .number: found = "a number"
        case .bool: found = "a boolean"
        case .null: found = "null"
        case .end: found = "the end of the document"
        }
        if !nextValueLooksValid() { return error("expected \(expected), found malformed JSON") }
        return error("expected \(expected), found \(found)")
    }

    /// Whether the next bytes start a value of the kind `peekKind` guessed (a bare word such
    /// as `nope` starts like `null` but is not JSON).
    private func nextValueLooksValid() -> Bool {
        guard index < bytes.count else { return true }
        let byte = bytes[index]
        func starts(_ literal: StaticString) -> Bool {
            index + literal.utf8CodeUnitCount <= bytes.count
                && memcmp(bytes.baseAddress! + index, literal.utf8Start, literal.utf8CodeUnitCount) == 0
        }
        switch byte {
        case UInt8(ascii: "n"): return starts("null")
        case UInt8(ascii: "t"): return starts("true")
        case UInt8(ascii: "f"): return starts("false")
        case UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "\""), UInt8(ascii: "-"): return true
        default: return isDigit(byte)
        }
    }

    private func pathText() -> String {
        var text = ""
        for component in path {
            switch component {
            case .key(let raw):
                if !text.isEmpty { text += "." }
                text += JSONReader.visible(String(decoding: raw, as: UTF8.self))
            case .escapedKey(let key):
                if !text.isEmpty { text += "." }
                text += JSONReader.visible(key)
            case .index(let position):
                text += "[\(position)]"
            }
        }
        return text
    }
}

/// An object key as it appears in the document, compared without allocating.
public struct JSONKey {
    let raw: UnsafeRawBufferPointer
    /// The decoded key when it contained escapes (rare).
    let escaped: String?

    /// True when the key is exactly `name`.
    public func `is`(_ name: StaticString) -> Bool {
        if let escaped { return escaped == name.description }
        let count = name.utf8CodeUnitCount
        return raw.count == count && memcmp(raw.baseAddress!, name.utf8Start, count) == 0
    }

    /// The key as a string.
    public var string: String { escaped ?? String(decoding: raw, as: UTF8.self) }
}

extension JSONReader {
    /// An ISO 8601 timestamp string, parsed without allocating.
    public mutating func readInstant() throws -> Instant {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw typeError(expected: "a string") }
        let (raw, escaped) = try scanString()
        // Read where it lies: a String is made only for an escaped timestamp or an error.
        let instant = escaped == nil ? Instant.parse(raw.assumingMemoryBound(to: UInt8.self)) : {
            var copy = escaped!
            return copy.withUTF8 { Instant.parse($0) }
        }()
        guard let instant else {
            throw error("\(JSONReader.shown(escaped ?? String(decoding: raw, as: UTF8.self))) is not an ISO 8601 timestamp")
        }
        return instant
    }

    /// An ISO 8601 timestamp or null.
    public mutating func readOptionalInstant() throws -> Instant? {
        if readNull() { return nil }
        return try readInstant()
    }

    /// An array of strings.
    public mutating func readStrings() throws -> [String] {
        var values: [String] = []
        try readArray { reader, _ in values.append(try reader.readString()) }
        return values
    }

    /// An array of strings, checked as ``readStrings()`` checks it (the same errors) but not
    /// kept: no string is made.
    public mutating func skipStrings() throws {
        try readArray { reader, _ in try reader.skipString() }
    }

    /// A string, checked as ``readString()`` checks it (escapes included), not kept.
    public mutating func skipString() throws {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw typeError(expected: "a string") }
        _ = try scanString()
    }

    /// A string that is most often one of `known` (literals, which cost no allocation to hand
    /// out): that one is returned as it is, anything else as ``readString()`` reads it.
    public mutating func readString(usually known: [String]) throws -> String {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw typeError(expected: "a string") }
        let (raw, escaped) = try scanString()
        if let escaped { return escaped }
        for var candidate in known {
            let same = candidate.withUTF8 { $0.count == raw.count && (raw.isEmpty || memcmp($0.baseAddress!, raw.baseAddress!, raw.count) == 0) }
            if same { return candidate }
        }
        return String(decoding: raw, as: UTF8.self)
    }
}

extension JSONReader {
    /// A transaction id (``BitcoinIdentifier/txid(_:)``), in lower case.
    public mutating func readTxid() throws -> String {
        let text = try readString()
        guard let txid = BitcoinIdentifier.txid(text) else {
            throw error("\(JSONReader.shown(text)) is not a transaction id (64 hexadecimal digits)")
        }
        return txid
    }

    /// An outpoint `txid:vout` (``BitcoinIdentifier/outpoint(_:)``), its txid in lower case.
    public mutating func readOutpoint() throws -> String {
        let text = try readString()
        guard let outpoint = BitcoinIdentifier.outpoint(text) else {
            throw error("\(JSONReader.shown(text)) is not an outpoint (txid:vout: 64 hexadecimal digits, a colon, an output index)")
        }
        return outpoint
    }
}
