import Foundation

/// The size of the terminal stdout is attached to.
enum Terminal {
    static func width() -> Int? { size()?.ws_col.nonZero }
    static func height() -> Int? { size()?.ws_row.nonZero }

    private static func size() -> winsize? {
        var size = winsize()
        return ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0 ? size : nil
    }
}

extension UInt16 {
    fileprivate var nonZero: Int? { self == 0 ? nil : Int(self) }
}
