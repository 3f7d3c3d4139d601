/// The wire models encode through their own ``JSONWritable`` output, so that `Encodable` and
/// what the simulator serves can never disagree about names, nulls and omitted fields.
extension JSONWritable {
    func encodeWire(to encoder: any Encoder) throws {
        try SimJSON(parsing: jsonBytes).encode(to: encoder)
    }
}

/// A coding key made from any string (for the few places that need dynamic keys).
struct AnyCodingKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
