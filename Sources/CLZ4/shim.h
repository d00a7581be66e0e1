#ifndef TALLY_CLZ4_SHIM_H
#define TALLY_CLZ4_SHIM_H
#include <lz4.h>
#endif
