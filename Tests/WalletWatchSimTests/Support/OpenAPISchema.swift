import Foundation

/// Validates JSON values against the schemas of barkd's OpenAPI document (barkd's public API
/// description, kept beside these tests in `Fixtures/`): `$ref`, `allOf`, `oneOf`, `type` (with null), `required`, `properties`,
/// `items`, `enum` and `minimum`. Enough to catch a missing field, a wrong type, a null
/// where none is allowed, or a negative amount.
struct OpenAPISchema {
    let schemas: [String: Any]

    /// Finds the document: `$WALLETWATCH_OPENAPI` when set, else the copy in `Fixtures/`.
    static func load() throws -> OpenAPISchema {
        let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        var candidates: [String] = []
        if let explicit = ProcessInfo.processInfo.environment["WALLETWATCH_OPENAPI"] { candidates.append(explicit) }
        candidates.append(tests.appendingPathComponent("Fixtures/barkd-openapi-0.6.0.json").path)
        guard let path = candidates.first(where: { FileManager.default.fileExists(atPath: $0) }) else {
            throw HTTPProbe.Failure(description: "barkd-openapi-0.6.0.json not found in \(candidates)")
        }
        let document = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any]
        let components = document?["components"] as? [String: Any]
        return OpenAPISchema(schemas: components?["schemas"] as? [String: Any] ?? [:])
    }

    /// Problems found validating `value` against the named schema (empty when it conforms).
    func problems(_ value: Any, against name: String) -> [String] {
        var found: [String] = []
        check(value, schemas[name] ?? [:], path: name, &found)
        return found
    }

    /// Problems validating every element of an array against the named schema.
    func problems(array value: Any, of name: String) -> [String] {
        guard let elements = value as? [Any] else { return ["\(name)[]: not an array"] }
        return elements.enumerated().flatMap { problems($0.element, against: name).map { "[\($0)] " + $0 } }
    }

    private func check(_ value: Any, _ schema: Any, path: String, _ found: inout [String]) {
        guard let schema = schema as? [String: Any] else { return }
        if let ref = schema["$ref"] as? String {
            let name = String(ref.split(separator: "/").last ?? "")
            check(value, schemas[name] ?? [:], path: path, &found)
        }
        if let all = schema["allOf"] as? [Any] {
            for part in all { check(value, part, path: path, &found) }
        }
        if let options = schema["oneOf"] as? [Any] {
            let matching = options.filter { option in
                var local: [String] = []
                check(value, option, path: path, &local)
                return local.isEmpty
            }
            if matching.isEmpty { found.append("\(path): matches none of oneOf") }
        }
        if let types = schema["type"] {
            let allowed = (types as? [String]) ?? [(types as? String) ?? ""]
            guard allowed.contains(where: { matches(value, type: $0) }) else {
                found.append("\(path): \(describe(value)) is not \(allowed.joined(separator: "|"))")
                return
            }
        }
        if let choices = schema["enum"] as? [Any], let text = value as? String,
           !choices.contains(where: { ($0 as? String) == text }) {
            found.append("\(path): \(text) is not one of \(choices)")
        }
        if let minimum = schema["minimum"] as? NSNumber, let number = value as? NSNumber, !isBool(value),
           number.doubleValue < minimum.doubleValue {
            found.append("\(path): \(number) < minimum \(minimum)")
        }
        if let object = value as? [String: Any] {
            for key in schema["required"] as? [String] ?? [] where object[key] == nil {
                found.append("\(path): missing required \(key)")
            }
            for (key, property) in schema["properties"] as? [String: Any] ?? [:] {
                if let member = object[key] { check(member, property, path: path + "." + key, &found) }
            }
        }
        if let array = value as? [Any], let items = schema["items"] {
            for (index, element) in array.enumerated() { check(element, items, path: "\(path)[\(index)]", &found) }
        }
    }

    private func matches(_ value: Any, type: String) -> Bool {
        switch type {
        case "null": return value is NSNull
        case "boolean": return isBool(value)
        case "integer":
            guard let number = value as? NSNumber, !isBool(value) else { return false }
            return number.doubleValue == number.doubleValue.rounded()
        case "number": return value is NSNumber && !isBool(value)
        case "string": return value is String
        case "array": return value is [Any]
        case "object": return value is [String: Any]
        default: return true
        }
    }

    private func isBool(_ value: Any) -> Bool {
        guard let number = value as? NSNumber else { return false }
        // Foundation's JSON booleans are NSNumbers of type "c" (char), integers are not.
        return String(cString: number.objCType) == "c"
    }

    private func describe(_ value: Any) -> String {
        if value is NSNull { return "null" }
        if value is String { return "string \"\(value)\"" }
        return "\(type(of: value)) \(value)"
    }
}
