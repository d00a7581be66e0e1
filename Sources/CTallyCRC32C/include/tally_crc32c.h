#ifndef TALLY_CRC32C_H
#define TALLY_CRC32C_H

#include <stddef.h>
#include <stdint.h>

/// Extends a CRC32C (Castagnoli) over `length` bytes. Start with `crc = 0`; the result of one
/// call can be passed to the next to checksum discontiguous ranges. Uses the CPU's CRC
/// instruction when present (SSE4.2 on x86_64, CRC on ARMv8), else the table fallback.
uint32_t tally_crc32c_extend(uint32_t crc, const void *bytes, size_t length);

/// The portable slicing-by-8 table implementation, always available (tests compare it with
/// the hardware path).
uint32_t tally_crc32c_extend_table(uint32_t crc, const void *bytes, size_t length);

/// 1 when `tally_crc32c_extend` uses a hardware instruction on this CPU, else 0.
int tally_crc32c_is_hardware_accelerated(void);

#endif
