import Foundation

/// A program run on a pseudo-terminal, as a person at a terminal runs it: its stdin, stdout
/// and stderr are the terminal (isatty says so), what it prints is collected, and the test
/// types what a person would type, when the program has asked. Waiting never blocks a thread
/// of the test's.
public final class TerminalProcess: @unchecked Sendable {
    private let process = Process()
    private let master: Int32
    private let termination = ProcessExit()
    private let lock = NSLock()
    private var printed: [UInt8] = []
    /// Whether the master side is still open (the reader closes it once the terminal closed).
    private var masterOpen = true

    /// Linux's ioctls on /dev/ptmx (asm-generic/ioctls.h), which Glibc's module does not export.
    private static let unlockRequest = UInt(0x4004_5431)  // TIOCSPTLCK
    private static let numberRequest = UInt(0x8004_5430)  // TIOCGPTN

    public init(_ executable: String, _ arguments: [String], environment: [String: String], currentDirectory: String) throws {
        master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard master >= 0 else { throw TerminalError("cannot open /dev/ptmx: \(String(cString: strerror(errno)))") }
        var unlock: Int32 = 0
        var number: UInt32 = 0
        guard ioctl(master, Self.unlockRequest, &unlock) == 0, ioctl(master, Self.numberRequest, &number) == 0 else {
            close(master)
            throw TerminalError("cannot set up the pseudo-terminal: \(String(cString: strerror(errno)))")
        }
        let terminal = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard terminal >= 0 else {
            close(master)
            throw TerminalError("cannot open /dev/pts/\(number): \(String(cString: strerror(errno)))")
        }
        var size = winsize(ws_row: 40, ws_col: 200, ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(terminal, UInt(TIOCSWINSZ), &size)
        let handle = FileHandle(fileDescriptor: terminal, closeOnDealloc: false)
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        process.currentDirectoryURL = URL(fileURLWithPath: currentDirectory)
        process.standardInput = handle
        process.standardOutput = handle
        process.standardError = handle
        termination.watch(process)
        do {
            try process.run()
        } catch {
            close(terminal)
            close(master)
            throw error
        }
        // Only the program holds the terminal now: once it exits, reading the master ends.
        close(terminal)
        let thread = Thread { [self] in collect() }
        thread.start()
    }

    /// Reads what the program prints until the terminal closes.
    private func collect() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(master, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            lock.withLock { printed += buffer[..<count] }
        }
        lock.withLock {
            masterOpen = false
            close(master)
        }
    }

    /// Everything the program printed so far (stdout and stderr, as the terminal shows them:
    /// each line feed comes as CR LF), and what was typed, echoed.
    public var output: String { lock.withLock { String(decoding: printed, as: UTF8.self) } }

    /// Types `text` at the terminal.
    public func type(_ text: String) {
        let bytes = Array(text.utf8)
        lock.withLock {
            guard masterOpen else { return }
            bytes.withUnsafeBytes { _ = write(master, $0.baseAddress, $0.count) }
        }
    }

    /// Sends a signal to the program.
    public func send(_ signal: Int32) { kill(process.processIdentifier, signal) }

    /// Its exit status, or nil when it is still running after `timeout`.
    public func exitStatus(within timeout: Duration) async -> Int32? {
        await termination.status(within: timeout)
    }

    deinit {
        if termination.status == nil { kill(process.processIdentifier, SIGKILL) }
    }
}

/// The pseudo-terminal could not be made.
public struct TerminalError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
