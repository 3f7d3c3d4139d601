import Foundation

/// The alternate screen of a terminal: entered at start, left (with the cursor and input mode
/// restored) on exit, whatever the exit.
final class FullScreen {
    private var saved = termios()
    private var restored = false

    init() {
        tcgetattr(STDIN_FILENO, &saved)
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON)
        tcsetattr(STDIN_FILENO, TCSANOW, &raw)
        Output.control(.enterFullScreen)
    }

    func draw(_ lines: [String]) {
        Output.screen(Array(lines.prefix(Terminal.height() ?? lines.count)))
    }

    func restore() {
        guard !restored else { return }
        restored = true
        Output.control(.leaveFullScreen)
        tcsetattr(STDIN_FILENO, TCSANOW, &saved)
    }

    deinit { restore() }
}
