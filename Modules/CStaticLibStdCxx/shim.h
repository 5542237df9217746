#ifndef GANNET_CSTATICLIBSTDCXX_SHIM_H
#define GANNET_CSTATICLIBSTDCXX_SHIM_H

// No declarations: this module exists for its module map's `link ":libstdc++.a"`, which puts
// GCC's static libstdc++ on `gannet`'s link line among the Swift runtime's own archives, ahead of
// the `-lstdc++` that `--static-swift-stdlib` adds after them. The statically linked runtime,
// Foundation and its ICU then take their C++ library from the archive (its symbols not exported:
// that link line hides every archive's), and the dynamic loader neither maps nor relocates
// libstdc++.so.6 at each start (docs/performance.md, "Start-up"). In a build against the shared
// Swift libraries nothing in `gannet` itself needs a C++ symbol, so no member of the archive is
// linked.

#endif
