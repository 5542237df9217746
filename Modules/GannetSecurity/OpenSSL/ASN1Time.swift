internal import COpenSSL
import Foundation

/// Converts OpenSSL's `ASN1_TIME` (UTCTime or GeneralizedTime, always UTC in certificates).
enum ASN1Time {
    static func date(_ time: UnsafePointer<ASN1_TIME>?) -> Date? {
        guard let time else { return nil }
        var components = tm()
        guard ASN1_TIME_to_tm(time, &components) == 1 else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(timegm(&components)))
    }
}
