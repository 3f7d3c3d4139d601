import Foundation
import Testing
import TestSupport

/// `walletwatch serve` as a browser and a hostile page meet it, through curl.
@Suite("CLI: serve's defences")
struct ServeSecurityCLITests {
    /// Starts `serve` on a free loopback port in `folder` and returns it with its port.
    func serve(_ cli: CLIRunner, _ folder: TemporaryDirectory) async throws -> (BackgroundProcess, Int) {
        let portFile = folder.file("web.port")
        try? FileManager.default.removeItem(atPath: portFile)
        let server = try BackgroundProcess(cli.binary, ["serve", "--listen", "127.0.0.1:0", "--port-file", portFile],
                                           environment: cli.environment, currentDirectory: folder.path)
        var port = 0
        #expect(await eventually(within: .seconds(30)) {
            port = Int((try? String(contentsOfFile: portFile, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? 0
            return port > 0
        }, "serve did not start: \(server.stderr)")
        return (server, port)
    }

    /// curl's status code and body for `url`, with extra arguments (headers).
    func curl(_ url: String, _ extra: [String] = []) async throws -> (status: String, body: String) {
        let result = try await ProcessRunner.run("/usr/bin/curl", ["-s", "--max-time", "60", "-w", "\n%{http_code}"] + extra + [url],
                                                 environment: [:], currentDirectory: "/")
        let body = result.stdout
        guard let split = body.lastIndex(of: "\n") else { return ("", body) }
        return (String(body[body.index(after: split)...]), String(body[..<split]))
    }

    func manualFolder(token: String? = nil) async throws -> (TemporaryDirectory, CLIRunner) {
        let folder = TemporaryDirectory("walletwatch-serve-security")
        var config = "[rates]\nprovider = \"static\"\ncurrencies = [\"USD\"]\n[rates.static]\n\"BTC/USD\" = \"60000\"\n"
        if let token {
            folder.write("web.token", token + "\n")
            #expect(chmod(folder.file("web.token"), 0o600) == 0)
            config += "[serve]\ntoken_file = \"web.token\"\n"
        }
        folder.write("walletwatch.toml", config)
        let cli = CLIRunner(folder: folder)
        #expect(try await cli.run("asset", "add", "Savings", "--currency", "USD").status == 0)
        #expect(try await cli.run("tx", "add", "Savings", "4321.09", "--date", "2026-11-02").status == 0)
        return (folder, cli)
    }

    @Test("DNS rebinding: a tokenless serve answers 421 to another host name on every route, and 200 to 127.0.0.1 and localhost")
    func rebinding() async throws {
        let (folder, cli) = try await manualFolder()
        let (server, port) = try await serve(cli, folder)
        let base = "http://127.0.0.1:\(port)"
        for path in ["/api/v1/status", "/api/v1/balances", "/api/v1/transactions", "/", "/fragment", "/events", "/metrics", "/healthz"] {
            let refused = try await curl(base + path, ["-H", "Host: rebind.evil.example:\(port)"])
            #expect(refused.status == "421", "\(path): \(refused)")
            #expect(refused.body.contains("open http://127.0.0.1:\(port)/ instead"), "\(path): \(refused.body)")
            #expect(!refused.body.contains("4321") && !refused.body.contains("Savings"))
        }
        for host in ["127.0.0.1:\(port)", "localhost:\(port)", "localhost"] {
            let answer = try await curl(base + "/api/v1/balances", ["-H", "Host: \(host)"])
            #expect(answer.status == "200" && answer.body.contains("432109"), "Host: \(host): \(answer)")
        }
        // As a browser would open it, by name.
        #expect(try await curl("http://localhost:\(port)/healthz").body == "ok\n")
        server.send(SIGTERM)
        #expect(await server.exitStatus(within: .seconds(30)) == 0, "\(server.stderr)")
    }

    @Test("the page's cookie is not the token, and a restart of serve ends it")
    func cookieAcrossRestart() async throws {
        let token = "f00dfeedcafe0123456789abcdefbeef"
        let (folder, cli) = try await manualFolder(token: token)
        let (first, port) = try await serve(cli, folder)
        let jar = folder.file("cookies.txt")
        let login = try await curl("http://127.0.0.1:\(port)/?token=\(token)", ["-c", jar])
        #expect(login.status == "303")
        let stored = try String(contentsOfFile: jar, encoding: .utf8)
        #expect(stored.contains("walletwatch_session") && !stored.contains(token) && !stored.contains(String(token.prefix(12))), "\(stored)")
        let page = try await curl("http://127.0.0.1:\(port)/", ["-b", jar])
        #expect(page.status == "200" && page.body.contains("Savings"))
        #expect(try await curl("http://127.0.0.1:\(port)/api/v1/balances", ["-b", jar]).status == "401", "the cookie opens the page, not the API")
        #expect(try await curl("http://127.0.0.1:\(port)/api/v1/balances", ["-H", "Authorization: Bearer \(token)"]).status == "200")
        first.send(SIGTERM)
        #expect(await first.exitStatus(within: .seconds(30)) == 0)

        let (second, newPort) = try await serve(cli, folder)
        // The same cookie, sent to the new server.
        let cookie = try #require(stored.split(separator: "\n").last { $0.contains("walletwatch_session") }?.split(separator: "\t").last)
        let stale = try await curl("http://127.0.0.1:\(newPort)/", ["-H", "Cookie: walletwatch_session=\(cookie)"])
        #expect(stale.status == "401", "a cookie from before the restart: \(stale)")
        #expect(try await curl("http://127.0.0.1:\(newPort)/", ["-H", "Authorization: Bearer \(token)"]).status == "200")
        second.send(SIGTERM)
        #expect(await second.exitStatus(within: .seconds(30)) == 0)
    }
}
