// Intentionally empty: the target only exports the declaration in include/libfuzzer_driver.h
// (SwiftPM needs one source file per C target).
#include "libfuzzer_driver.h"
