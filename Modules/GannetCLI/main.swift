import Foundation

// Replaced by the httpie-style command line in the CLI work (issue 7).
FileHandle.standardError.write(Data("gannet: the command line is not built yet\n".utf8))
exit(2)
