/// A JSON value whose objects keep their keys in order, so that a served body can be parsed,
/// changed by a fault (drop the first key, turn the first integer into a string) and written
/// back exactly. Numbers keep their text (`65000.12` stays `65000.12`).
public indirect enum SimJSON: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(String)
    case string(String)
    case array([SimJSON])
    case object([Member])

    /// One key and its value inside an object.
    public struct Member: Sendable, Hashable {
        /// The member's key.
        public var key: String
        /// The member's value.
        public var value: SimJSON

        /// A member.
        public init(_ key: String, _ value: SimJSON) {
            self.key = key
            self.value = value
        }
    }

    /// An integer number.
    public static func int(_ value: Int64) -> SimJSON { .number(String(value)) }

    /// The value of `key` when this is an object that has it.
    public subscript(key: String) -> SimJSON? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// Parses JSON text (throws ``SimJSONError`` when it is not exactly one JSON value).
    public init(parsing bytes: [UInt8]) throws {
        var parser = JSONParser(bytes: bytes)
        self = try parser.parseDocument()
    }

    /// Parses JSON text.
    public init(parsing text: String) throws {
        try self.init(parsing: Array(text.utf8))
    }

    /// The value as compact JSON text.
    public var jsonText: String { String(decoding: jsonBytes, as: UTF8.self) }
}

extension SimJSON: JSONWritable {
    func writeJSON(to out: inout JSONBuffer) {
        switch self {
        case .null: out.null()
        case .bool(let value): out.bool(value)
        case .number(let text): out.number(text)
        case .string(let text): out.string(text)
        case .array(let values):
            out.beginArray()
            for value in values { value.writeJSON(to: &out) }
            out.endArray()
        case .object(let members):
            out.beginObject()
            for member in members {
                out.key(member.key)
                member.value.writeJSON(to: &out)
            }
            out.endObject()
        }
    }
}

extension SimJSON: Codable {
    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public init(from decoder: any Decoder) throws {
        if let container = try? decoder.container(keyedBy: AnyKey.self) {
            // Decoders do not report key order; sorting keeps the result deterministic.
            let keys = container.allKeys.sorted { $0.stringValue < $1.stringValue }
            self = .object(try keys.map { Member($0.stringValue, try container.decode(SimJSON.self, forKey: $0)) })
            return
        }
        if var container = try? decoder.unkeyedContainer() {
            var values: [SimJSON] = []
            while !container.isAtEnd { values.append(try container.decode(SimJSON.self)) }
            self = .array(values)
            return
        }
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .int(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(String(value))
        } else {
            self = .string(try container.decode(String.self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case .bool(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .number(let text):
            var container = encoder.singleValueContainer()
            if let integer = Int64(text) {
                try container.encode(integer)
            } else {
                try container.encode(Double(text) ?? 0)
            }
        case .string(let text):
            var container = encoder.singleValueContainer()
            try container.encode(text)
        case .array(let values):
            var container = encoder.unkeyedContainer()
            for value in values { try container.encode(value) }
        case .object(let members):
            var container = encoder.container(keyedBy: AnyKey.self)
            for member in members { try container.encode(member.value, forKey: AnyKey(stringValue: member.key)) }
        }
    }
}

/// JSON text that is not one well-formed JSON value.
public struct SimJSONError: Error, CustomStringConvertible {
    /// Byte offset where parsing stopped.
    public let offset: Int
    /// What was wrong there.
    public let reason: String
    public var description: String { "invalid JSON at byte \(offset): \(reason)" }
}
