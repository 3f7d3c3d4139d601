/// A word written so that a POSIX shell reads it back as it is: for commands that messages
/// tell the user to run (`walletwatch ingest --source 'my wallet'`).
public enum ShellWord {
    /// `text` as is when it holds only characters no shell treats specially, else in single
    /// quotes (a single quote inside written as `'\''`).
    public static func quoted(_ text: String) -> String {
        let plain = !text.isEmpty && text.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "_-.,/:@%+=".unicodeScalars.contains(scalar))
        }
        return plain ? text : "'" + text.replacingAll("'", with: "'\\''") + "'"
    }
}
