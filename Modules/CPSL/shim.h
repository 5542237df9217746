#ifndef GANNET_CPSL_SHIM_H
#define GANNET_CPSL_SHIM_H

// The system's libpsl (the Public Suffix List library libcurl links), for RFC 6265bis §5.7's
// public-suffix check on a cookie's Domain (docs/auth-cookies-cache.md). Its functions are not
// variadic and take plain C strings, so Swift calls them as they are; only one constant is added.
#include <libpsl.h>

// The lookup types for the cookie check, as one constant: PSL_TYPE_ANY is a macro built from
// other macros, which Swift does not reliably import.
static const int cpsl_cookie_suffix_types = PSL_TYPE_ANY | PSL_TYPE_NO_STAR_RULE;

#endif
