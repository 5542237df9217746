// libFuzzer's driver, called from GannetFuzz's `main` (Fuzz/GannetFuzz/FuzzEntry.swift): SwiftPM
// gives a debug executable its own `main`, so libFuzzer's cannot be used.
// https://llvm.org/docs/LibFuzzer.html#using-libfuzzer-as-a-library
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
