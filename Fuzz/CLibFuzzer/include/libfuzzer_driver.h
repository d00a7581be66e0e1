// libFuzzer's entry for programs that keep their own `main` (see Docs/Fuzzing.md).
//
// SwiftPM links every executable with `--defsym main=<module>_main`, so an executable without
// a Swift `@main` does not link, and with one, libFuzzer's own `main` is never reached. The
// fuzz executables therefore keep a `@main` that, in a `-sanitize=fuzzer` build, hands over
// to libFuzzer through this function. It is defined by libclang_rt.fuzzer, which only
// `-sanitize=fuzzer` links: call it only under `#if TALLY_FUZZING`.
#ifndef TALLY_LIBFUZZER_DRIVER_H
#define TALLY_LIBFUZZER_DRIVER_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*test_one_input)(const uint8_t *data, size_t size));

#endif
