import Foundation
import WalletWatchCore

extension ConfigLoader {
    /// One `[[notify]]` entry (CLI.md "Additions"): a name, `kind = "webhook"`, an http(s) URL,
    /// an optional `secret_file` and the events it wants (all when left out).
    static func notifyTarget(_ reader: TableReader, folder: String) throws -> NotifyConfig {
        var reader = reader
        guard let name = try reader.string("name") else { throw reader.error("name", "is missing; every [[notify]] entry needs a unique name") }
        guard !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) }) else {
            throw reader.error("name", "'\(name)' is not accepted; use letters, digits, '-', '_' or '.'")
        }
        let kindText = try reader.string("kind") ?? NotifyConfig.Kind.webhook.rawValue
        guard let kind = NotifyConfig.Kind(rawValue: kindText) else {
            throw reader.error("kind", "'\(kindText)' is not accepted; use \"webhook\"")
        }
        guard let url = try reader.string("url") else {
            throw reader.error("url", "is missing; give the http:// or https:// URL the events are posted to")
        }
        // The URL is not echoed: a webhook URL often carries its own secret (a Home Assistant
        // webhook id, an ntfy topic).
        guard let parsed = URL(string: url), let scheme = parsed.scheme?.lowercased(), ["http", "https"].contains(scheme),
              parsed.host?.isEmpty == false
        else {
            throw reader.error("url", "is not accepted; use an http:// or https:// URL with a host, like https://ntfy.sh/my-topic")
        }
        let secretFile = try reader.string("secret_file").map { absolute($0, relativeTo: folder) }
        var events = Set(NotificationEvent.Name.subscribable)
        if let names = try reader.strings("events") {
            let accepted = NotificationEvent.Name.subscribable.map { "\"\($0)\"" }.joined(separator: ", ")
            guard !names.isEmpty else {
                throw reader.error("events", "is empty; list some of \(accepted), or leave the key out for all of them")
            }
            events = try Set(names.map { text in
                guard let event = NotificationEvent.Name(rawValue: text), event != .test else {
                    throw reader.error("events", "'\(DisplaySafety.escaped(text))' is not an event; accepted: \(accepted)")
                }
                return event
            })
        }
        let proxy = try reader.proxy()
        try reader.rejectUnknownKeys()
        return NotifyConfig(name: name, kind: kind, url: url, secretFile: secretFile, events: events, proxy: proxy)
    }
}
