/// Why Gannet refused or failed to write one of its own files (a download's temporary file, a
/// saved session, resume data, a cookie file): the file is created new, private to its owner
/// (0600), and never through a path someone else prepared (docs/security.md, "Files").
///
/// It reaches callers as the ``GannetError/underlyingError`` of the error that names the
/// operation (``GannetError/Code/downloadMoveFailed``, ``GannetError/Code/invalidResumeData``,
/// …), or as the error of an API that writes a file itself.
public struct PrivateFileError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public struct Code: NamedErrorCode {
        /// A short identifier, stable across releases.
        public let name: String
        init(_ name: String) { self.name = name }

        /// A new file could not be created in the folder (no such folder, no permission, or no
        /// free name after many tries).
        public static let cannotCreate = Code("cannotCreate")
        /// A file Gannet created, or one it was asked to reuse, is not what it must be: not a
        /// regular file, not owned by this user, readable or writable by others, or linked
        /// under another name. Someone else prepared it; it is not used.
        public static let notPrivate = Code("notPrivate")
        /// The destination is a symbolic link (dangling or not): writing there would write
        /// wherever the link points.
        public static let destinationIsSymbolicLink = Code("destinationIsSymbolicLink")
        /// The destination exists and is not a regular file (a directory, a FIFO, a device).
        public static let destinationNotRegularFile = Code("destinationNotRegularFile")
        /// Writing, flushing (`fsync`) or closing the file failed; nothing was put in place.
        public static let writeFailed = Code("writeFailed")
        /// Putting the finished file at its destination (`rename(2)`) failed; the destination
        /// is as it was.
        public static let renameFailed = Code("renameFailed")
        /// Reading a file Gannet wrote earlier failed.
        public static let readFailed = Code("readFailed")
        /// A file to read is larger than the caller's limit; it is not read.
        public static let fileTooLarge = Code("fileTooLarge")
    }

    /// What went wrong.
    public let code: Code
    /// The path involved: the destination, or the file that was refused.
    public let path: String
    /// The `errno` of the system call that failed, `nil` for a refusal.
    public let systemError: Int32?
    /// A one-line reason.
    public let message: String

    init(_ code: Code, _ path: String, _ message: String, systemError: Int32? = nil) {
        self.code = code
        self.path = path
        self.message = message
        self.systemError = systemError
    }

    public var description: String { message }
}

extension PrivateFileError: DescriptiveError {}
