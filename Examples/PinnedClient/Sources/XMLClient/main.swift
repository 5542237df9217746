// The smallest client of the `GannetXML` product: scripts/check-linkage.sh expects libxml2 here,
// which shows its check for libxml2 can see it.
import GannetXML

let document = try XMLDocument.parse(data: Data("<bird>gannet</bird>".utf8))
print("XMLClient: \(document.root?.text ?? "")")
