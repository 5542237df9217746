/// What kind of interface traffic to a target would leave through.
enum InterfaceKind: Hashable, Sendable {
    case ethernet
    case wifi
    case other

    /// Wi-Fi when sysfs says the interface is wireless, Ethernet for any other `ARPHRD_ETHER`
    /// (wired NICs, veth, bridges), other for the rest (loopback, tun, ppp, ...).
    static func classify(hardwareType: UInt16, isWireless: Bool) -> InterfaceKind {
        if isWireless { return .wifi }
        return hardwareType == Netlink.hardwareEthernet ? .ethernet : .other
    }

    /// The status of a target reached through an interface of this kind.
    var reachableStatus: NetworkReachabilityStatus {
        switch self {
        case .ethernet: .reachableViaEthernet
        case .wifi: .reachableViaWiFi
        case .other: .reachableViaOther
        }
    }

    /// Whether `/sys/class/net/<name>/wireless` or `/phy80211` exists: the cfg80211 and wireless
    /// extension drivers create them, wired drivers do not. Reads the sysfs of the caller's
    /// network namespace (`ip netns exec` mounts the namespace's own).
    static func isWireless(interfaceName name: String) -> Bool {
        // Kernel interface names never hold `/`; refuse anything that could leave the directory.
        guard !name.isEmpty, !name.contains("/"), name != ".", name != ".." else { return false }
        let directory = "/sys/class/net/" + name
        return FileManager.default.fileExists(atPath: directory + "/wireless")
            || FileManager.default.fileExists(atPath: directory + "/phy80211")
    }
}
