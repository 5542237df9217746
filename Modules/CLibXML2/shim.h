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
#include <libxml/entities.h>
#include <libxml/tree.h>

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// libxml2 is loaded with dlopen the first time XML is parsed, never at start-up: linked in, it
// and the ICU it brings cost every process that parses no XML (a `gannet URL`, a JSON-only app
// that also links GannetXML) about 1.2 million instructions of the dynamic loader's time
// (docs/performance.md, "Start-up"). Gannet calls libxml2 only through this table; its header
// types and constants are used as they are. Each field is typed from the header's own
// declaration (__typeof__), so a mismatch with the installed header does not compile.
#define CLIBXML2_SONAME "libxml2.so.2"

typedef struct clibxml2_functions {
    __typeof__(xmlInitParser) *_Nonnull initParser;
    __typeof__(xmlCreatePushParserCtxt) *_Nonnull createPushParserCtxt;
    __typeof__(xmlCtxtUseOptions) *_Nonnull ctxtUseOptions;
    __typeof__(xmlParseChunk) *_Nonnull parseChunk;
    __typeof__(xmlStopParser) *_Nonnull stopParser;
    __typeof__(xmlFreeParserCtxt) *_Nonnull freeParserCtxt;
    __typeof__(xmlSAX2GetLineNumber) *_Nonnull sax2GetLineNumber;
    __typeof__(xmlSAX2GetColumnNumber) *_Nonnull sax2GetColumnNumber;
    __typeof__(xmlDictOwns) *_Nonnull dictOwns;
    __typeof__(xmlNewDoc) *_Nonnull newDoc;
    __typeof__(xmlFreeDoc) *_Nonnull freeDoc;
    __typeof__(xmlCreateIntSubset) *_Nonnull createIntSubset;
    __typeof__(xmlAddDocEntity) *_Nonnull addDocEntity;
    __typeof__(xmlGetDocEntity) *_Nonnull getDocEntity;
    __typeof__(xmlSetStructuredErrorFunc) *_Nonnull setStructuredErrorFunc;
    __typeof__(xmlSetGenericErrorFunc) *_Nonnull setGenericErrorFunc;
    __typeof__(__xmlStructuredError) *_Nonnull structuredError;
    __typeof__(__xmlStructuredErrorContext) *_Nonnull structuredErrorContext;
    __typeof__(__xmlGenericError) *_Nonnull genericError;
    __typeof__(__xmlGenericErrorContext) *_Nonnull genericErrorContext;
} clibxml2_functions;

// Opens libxml2 and binds every function of the table, or returns NULL with the reason (dlerror's)
// copied into `reason` (dlerror's own string does not outlive the next dl call, dlclose's). The
// table is allocated once per successful call and never freed: like the library it points into,
// it lives as long as the process. Called once (GannetXML's `LibXML2.loaded`, a Swift `static
// let`, so never concurrently); the storage is the caller's, not a static here, because a static
// in a header would be one copy per object file that inlines this.
static inline const clibxml2_functions *_Nullable clibxml2_load(char *_Nonnull reason, size_t capacity) {
    void *library = dlopen(CLIBXML2_SONAME, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        const char *error = dlerror();
        snprintf(reason, capacity, "%s", error != NULL ? error : "dlopen failed");
        return NULL;
    }
    void *symbols[sizeof(clibxml2_functions) / sizeof(void *)];
    static const char *const names[sizeof(clibxml2_functions) / sizeof(void *)] = {
        "xmlInitParser", "xmlCreatePushParserCtxt", "xmlCtxtUseOptions", "xmlParseChunk",
        "xmlStopParser", "xmlFreeParserCtxt", "xmlSAX2GetLineNumber", "xmlSAX2GetColumnNumber",
        "xmlDictOwns", "xmlNewDoc", "xmlFreeDoc", "xmlCreateIntSubset", "xmlAddDocEntity",
        "xmlGetDocEntity", "xmlSetStructuredErrorFunc", "xmlSetGenericErrorFunc",
        "__xmlStructuredError", "__xmlStructuredErrorContext", "__xmlGenericError",
        "__xmlGenericErrorContext",
    };
    for (size_t index = 0; index < sizeof(names) / sizeof(names[0]); index++) {
        (void)dlerror();
        symbols[index] = dlsym(library, names[index]);
        if (symbols[index] == NULL) {
            const char *error = dlerror();
            snprintf(reason, capacity, "%s", error != NULL ? error : names[index]);
            dlclose(library);
            return NULL;
        }
    }
    clibxml2_functions *functions = malloc(sizeof(clibxml2_functions));
    if (functions == NULL) {
        snprintf(reason, capacity, "out of memory");
        dlclose(library);
        return NULL;
    }
    // The fields are function pointers in the order of `names`: same size and representation
    // as void * on every platform POSIX dlsym serves.
    memcpy(functions, symbols, sizeof(symbols));
    return functions;
}

// libxml2's run-time version string (`20914`) for `gannet --version`, or NULL when the library
// cannot be loaded. Loads libxml2 for that one command only. (xmlParserVersion is a macro over
// this function.)
static inline const char *_Nullable clibxml2_runtime_version(void) {
    void *library = dlopen(CLIBXML2_SONAME, RTLD_LAZY | RTLD_LOCAL);
    if (library == NULL) return NULL;
    __typeof__(__xmlParserVersion) *version = (__typeof__(__xmlParserVersion) *)dlsym(library, "__xmlParserVersion");
    return version != NULL && version() != NULL ? *version() : NULL;
}

// xmlGenericErrorFunc is variadic, which Swift cannot form; GannetXML installs this no-op so
// nothing libxml2 prints reaches stderr.
static void clibxml2_discard_generic_error(void *context, const char *message, ...) {
    (void)context;
    (void)message;
}
static inline xmlGenericErrorFunc clibxml2_discarding_generic_error_func(void) {
    return clibxml2_discard_generic_error;
}

#endif
