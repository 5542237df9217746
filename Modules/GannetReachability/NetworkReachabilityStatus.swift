/// Whether a target can be reached, and through which kind of interface: AFNetworking's
/// `AFNetworkReachabilityStatus`, with WWAN replaced by the interface kinds Linux has.
///
/// "Reachable" means the kernel has a route to the target through an interface that is up and
/// has carrier; nothing is sent to find out (see docs/reachability.md).
public enum NetworkReachabilityStatus: Hashable, Sendable, CustomStringConvertible {
    /// Not known yet: monitoring has not started, or the kernel could not be asked.
    case unknown
    /// No route to the target through an interface that is up.
    case notReachable
    /// Reachable through a wired Ethernet-type interface (`ARPHRD_ETHER` that is not wireless).
    case reachableViaEthernet
    /// Reachable through a wireless interface (one with `wireless` or `phy80211` in sysfs).
    case reachableViaWiFi
    /// Reachable through any other interface: a tunnel, PPP, or loopback for loopback targets.
    case reachableViaOther

    /// Whether the target is reachable through any interface.
    public var isReachable: Bool {
        switch self {
        case .reachableViaEthernet, .reachableViaWiFi, .reachableViaOther: true
        case .unknown, .notReachable: false
        }
    }

    /// A localized-style description, as AFNetworking's `AFStringFromNetworkReachabilityStatus`.
    public var description: String {
        switch self {
        case .unknown: "Unknown"
        case .notReachable: "Not Reachable"
        case .reachableViaEthernet: "Reachable via Ethernet"
        case .reachableViaWiFi: "Reachable via WiFi"
        case .reachableViaOther: "Reachable via Other"
        }
    }
}
