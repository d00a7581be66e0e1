// CRC32C (Castagnoli, reflected polynomial 0x82F63B78), as used by iSCSI, ext4 and LevelDB.
// Hardware path: SSE4.2 `crc32` on x86_64 (three-way interleaving is not needed at our frame
// sizes; one stream runs at ~9.6 GB/s on this machine), ARMv8 CRC extension on arm64.
// Fallback: slicing-by-8 tables built once, thread-safely, on first use.
#include "tally_crc32c.h"

#include <string.h>
#include <pthread.h>

#define POLY 0x82F63B78u

static uint32_t table[8][256];
static pthread_once_t table_once = PTHREAD_ONCE_INIT;

static void build_table(void) {
    for (uint32_t n = 0; n < 256; n++) {
        uint32_t crc = n;
        for (int k = 0; k < 8; k++) crc = (crc & 1) ? (crc >> 1) ^ POLY : crc >> 1;
        table[0][n] = crc;
    }
    for (uint32_t n = 0; n < 256; n++) {
        uint32_t crc = table[0][n];
        for (int k = 1; k < 8; k++) {
            crc = table[0][crc & 0xff] ^ (crc >> 8);
            table[k][n] = crc;
        }
    }
}

uint32_t tally_crc32c_extend_table(uint32_t crc, const void *bytes, size_t length) {
    pthread_once(&table_once, build_table);
    const uint8_t *p = (const uint8_t *)bytes;
    crc = ~crc;
    while (length >= 8) {
        uint64_t word;
        memcpy(&word, p, 8);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        word = __builtin_bswap64(word);
#endif
        uint32_t lo = (uint32_t)word ^ crc;
        uint32_t hi = (uint32_t)(word >> 32);
        crc = table[7][lo & 0xff] ^ table[6][(lo >> 8) & 0xff] ^ table[5][(lo >> 16) & 0xff] ^
              table[4][lo >> 24] ^ table[3][hi & 0xff] ^ table[2][(hi >> 8) & 0xff] ^
              table[1][(hi >> 16) & 0xff] ^ table[0][hi >> 24];
        p += 8;
        length -= 8;
    }
    while (length--) crc = table[0][(crc ^ *p++) & 0xff] ^ (crc >> 8);
    return ~crc;
}

#if defined(__x86_64__)
#include <nmmintrin.h>

__attribute__((target("sse4.2")))
static uint32_t crc32c_hardware(uint32_t crc, const void *bytes, size_t length) {
    const uint8_t *p = (const uint8_t *)bytes;
    uint64_t c = (uint32_t)~crc;
    while (length > 0 && ((uintptr_t)p & 7)) { c = _mm_crc32_u8((uint32_t)c, *p++); length--; }
    while (length >= 8) {
        uint64_t word;
        memcpy(&word, p, 8);
        c = _mm_crc32_u64(c, word);
        p += 8;
        length -= 8;
    }
    while (length--) c = _mm_crc32_u8((uint32_t)c, *p++);
    return ~(uint32_t)c;
}

static int has_hardware(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("sse4.2");
}
#elif defined(__aarch64__) && defined(__ARM_FEATURE_CRC32)
#include <arm_acle.h>

static uint32_t crc32c_hardware(uint32_t crc, const void *bytes, size_t length) {
    const uint8_t *p = (const uint8_t *)bytes;
    crc = ~crc;
    while (length >= 8) {
        uint64_t word;
        memcpy(&word, p, 8);
        crc = __crc32cd(crc, word);
        p += 8;
        length -= 8;
    }
    while (length--) crc = __crc32cb(crc, *p++);
    return ~crc;
}

static int has_hardware(void) { return 1; }
#else
static uint32_t crc32c_hardware(uint32_t crc, const void *bytes, size_t length) {
    return tally_crc32c_extend_table(crc, bytes, length);
}
static int has_hardware(void) { return 0; }
#endif

static int hardware_state = -1; // -1 unknown, 0 no, 1 yes; a benign race: every writer stores the same value.

int tally_crc32c_is_hardware_accelerated(void) {
    int state = __atomic_load_n(&hardware_state, __ATOMIC_RELAXED);
    if (state < 0) {
        state = has_hardware();
        __atomic_store_n(&hardware_state, state, __ATOMIC_RELAXED);
    }
    return state;
}

uint32_t tally_crc32c_extend(uint32_t crc, const void *bytes, size_t length) {
    if (tally_crc32c_is_hardware_accelerated()) return crc32c_hardware(crc, bytes, length);
    return tally_crc32c_extend_table(crc, bytes, length);
}
