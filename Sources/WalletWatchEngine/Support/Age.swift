/// How long ago, as warnings say it: `42s`, `4m`, `3h 5m`, `2d 4h`. (The views' own, finer
/// `DisplayFormat.age` lives in WalletWatchPresentation.)
enum Age {
    static func describe(_ seconds: Int64) -> String {
        switch max(0, seconds) {
        case ..<60: "\(seconds)s"
        case ..<3600: "\(seconds / 60)m"
        case ..<86_400: "\(seconds / 3600)h \(seconds % 3600 / 60)m"
        default: "\(seconds / 86_400)d \(seconds % 86_400 / 3600)h"
        }
    }
}
