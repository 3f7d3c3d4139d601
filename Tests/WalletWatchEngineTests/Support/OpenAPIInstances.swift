import Foundation

/// Makes JSON instances of the schemas of an OpenAPI document (barkd's, one per release), the
/// way a daemon of that release could answer: `$ref`, `allOf`, `oneOf`, `type` (with `null`),
/// `required`, `properties`, `additionalProperties`, `items`, `enum`, `minimum`, the
/// `date-time` format, and `**Deprecated**` in a description.
///
/// The document says nothing of some strings' shape (a txid is `type: string`): `values`
/// supplies those by `Schema.property`. Everything else is made up from a counter, so that
/// every instance is different and the tests can find each value in what was stored.
final class OpenAPIInstances {
    /// Which properties an object gets.
    enum Mode: String, Sendable, CaseIterable, CustomStringConvertible {
        /// Only the `required` ones.
        case requiredOnly = "required properties only"
        /// Every property, with a value (never null), plus an unknown one.
        case everyProperty = "every property"
        /// Every property; null wherever the schema allows it.
        case nullWherePossible = "every property, null where allowed"

        var description: String { rawValue }
    }

    let schemas: [String: Any]
    let paths: [String: Any]
    let mode: Mode
    /// Leaves out the properties documented as deprecated (what the release that drops them will send).
    let withoutDeprecated: Bool
    /// Strings for `Schema.property` (the variant of the top-level element is passed).
    let values: [String: @Sendable (Int) -> Any]
    /// `date-time` strings, used in turn.
    let dates: [String]
    private var counter = 0
    private var dateIndex = 0

    init(document: [String: Any], mode: Mode, withoutDeprecated: Bool = false, values: [String: @Sendable (Int) -> Any], dates: [String]) {
        schemas = (document["components"] as? [String: Any])?["schemas"] as? [String: Any] ?? [:]
        paths = document["paths"] as? [String: Any] ?? [:]
        self.mode = mode
        self.withoutDeprecated = withoutDeprecated
        self.values = values
        self.dates = dates
    }

    /// The schema of `GET path`'s 200 answer.
    func responseSchema(of path: String) -> [String: Any]? {
        let operation = (paths[path] as? [String: Any])?["get"] as? [String: Any]
        let ok = (operation?["responses"] as? [String: Any])?["200"] as? [String: Any]
        return ((ok?["content"] as? [String: Any])?["application/json"] as? [String: Any])?["schema"] as? [String: Any]
    }

    /// An answer to `GET path`: an object, or an array of `count` elements (element `i` made
    /// as variant `i`, which picks `oneOf` alternatives in turn).
    func answer(to path: String, count: Int = 1) -> Any {
        guard let schema = responseSchema(of: path) else { return NSNull() }
        if schema["type"] as? String == "array", let items = schema["items"] {
            return (0..<count).map { instance(items, owner: "", variant: $0) }
        }
        return instance(schema, owner: "", variant: 0)
    }

    private func next() -> Int {
        counter += 1
        return counter
    }

    private func resolve(_ schema: [String: Any], owner: String) -> (schema: [String: Any], owner: String) {
        guard let ref = schema["$ref"] as? String else { return (schema, owner) }
        let name = String(ref.split(separator: "/").last ?? "")
        return resolve(schemas[name] as? [String: Any] ?? [:], owner: name)
    }

    private func types(_ schema: [String: Any]) -> [String] {
        if let list = schema["type"] as? [String] { return list }
        if let single = schema["type"] as? String { return [single] }
        return schema["properties"] != nil || schema["additionalProperties"] != nil ? ["object"] : []
    }

    /// Whether null is an allowed value.
    private func nullable(_ schema: [String: Any], owner: String) -> Bool {
        let (resolved, _) = resolve(schema, owner: owner)
        if types(resolved).contains("null") || resolved["nullable"] as? Bool == true { return true }
        return (resolved["oneOf"] as? [[String: Any]])?.contains { types($0) == ["null"] } ?? false
    }

    private func deprecated(_ schema: [String: Any]) -> Bool {
        (schema["description"] as? String)?.contains("**Deprecated**") == true || schema["deprecated"] as? Bool == true
    }

    func instance(_ raw: Any, owner: String, variant: Int, property: String? = nil) -> Any {
        guard let unresolved = raw as? [String: Any] else { return NSNull() }
        let (schema, owner) = resolve(unresolved, owner: owner)
        if mode == .nullWherePossible, nullable(schema, owner: owner) { return NSNull() }
        if let parts = schema["allOf"] as? [Any] {
            var merged: [String: Any] = [:]
            for part in parts {
                if let object = instance(part, owner: owner, variant: variant) as? [String: Any] {
                    merged.merge(object) { first, _ in first }
                }
            }
            return merged
        }
        if let options = (schema["oneOf"] as? [[String: Any]])?.filter({ types($0) != ["null"] }), !options.isEmpty {
            return instance(options[variant % options.count], owner: owner, variant: variant)
        }
        let kinds = types(schema).filter { $0 != "null" }
        switch kinds.first {
        case "object":
            var object: [String: Any] = [:]
            let required = Set(schema["required"] as? [String] ?? [])
            for (name, member) in schema["properties"] as? [String: Any] ?? [:] {
                let memberSchema = member as? [String: Any] ?? [:]
                if withoutDeprecated, deprecated(memberSchema) { continue }
                guard mode != .requiredOnly || required.contains(name) else { continue }
                if let value = values["\(owner).\(name)"] {
                    object[name] = mode == .nullWherePossible && nullable(memberSchema, owner: owner) ? NSNull() : value(variant)
                } else {
                    object[name] = instance(memberSchema, owner: owner, variant: variant, property: name)
                }
            }
            if schema["properties"] == nil, schema["additionalProperties"] != nil, mode != .requiredOnly {
                object["generated_\(next())"] = "free-form metadata"
            }
            // A field no version documents: a newer daemon may send it; it must be ignored.
            if mode == .everyProperty { object["x_walletwatch_unknown_\(next())"] = ["nested": [1, "two", NSNull()] as [Any]] }
            return object
        case "array":
            guard let items = schema["items"] else { return [Any]() }
            let (itemSchema, itemOwner) = resolve(items as? [String: Any] ?? [:], owner: owner)
            // A list of alternatives holds one of each.
            if let options = (itemSchema["oneOf"] as? [[String: Any]])?.filter({ types($0) != ["null"] }), options.count > 1 {
                return options.indices.map { instance(itemSchema, owner: itemOwner, variant: $0) }
            }
            return [instance(items, owner: owner, variant: variant)]
        case "string":
            if let choices = schema["enum"] as? [String], !choices.isEmpty { return choices[variant % choices.count] }
            if schema["format"] as? String == "date-time" {
                defer { dateIndex += 1 }
                return dates[dateIndex % dates.count]
            }
            return "\(owner).\(property ?? "value")-\(next())"
        case "integer":
            let minimum = (schema["minimum"] as? NSNumber)?.int64Value
            let value = Int64(100 + next())
            // A signed amount (no minimum) is negative in every other instance.
            return minimum == nil && variant % 2 == 1 ? -value : value
        case "number":
            return 1.5
        case "boolean":
            return variant % 2 == 0
        default:
            return "\(owner).\(property ?? "value")-\(next())"
        }
    }
}
