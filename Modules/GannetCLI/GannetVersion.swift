/// The version `gannet --version` prints and `User-Agent` carries.
enum GannetVersion {
    static let current = "0.1.0"
}
