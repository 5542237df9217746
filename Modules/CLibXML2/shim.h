#ifndef GANNET_CLIBXML2_SHIM_H
#define GANNET_CLIBXML2_SHIM_H

// Debian's libxml2 is built with ICU, and its headers then pull in ICU's, whose UErrorCode
// clashes with the copy Foundation carries ("'UErrorCode' has different definitions in
// different modules"). Gannet never uses libxml2's ICU encoders, so the flag is dropped.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED

#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include <libxml/xmlerror.h>
#include <libxml/encoding.h>

// xmlGenericErrorFunc is variadic, which Swift cannot form; GannetXML installs this no-op so
// nothing libxml2 prints reaches stderr.
static void clibxml2_discard_generic_error(void *context, const char *message, ...) {
    (void)context;
    (void)message;
}
static inline xmlGenericErrorFunc clibxml2_discarding_generic_error_func(void) {
    return clibxml2_discard_generic_error;
}

// xmlParserVersion is a macro over a function-like global.
static inline const char *clibxml2_parser_version(void) { return xmlParserVersion; }

#endif
