// CRC-32C with the CRC instructions of x86-64 (SSE4.2) and AArch64 (the CRC extension).
//
// x86-64: `crc32` has a latency of three cycles and a throughput of one, so one stream of
// 8-byte steps runs at a third of the unit's rate. On long buffers three streams of a fixed
// length run at once and are joined: the register of stream A followed by n bytes is
// A * x^(8n) mod P, computed with one carry-less multiply by the constant x^(8n - 33) mod P and
// one `crc32` of the 64-bit product (the multiply of two reflected values yields the product
// times x, and `crc32` of a 64-bit word multiplies by x^32 and reduces).
//
// AArch64: one stream of `crc32cx` (every Apple processor has it; Linux asks the kernel).

#include "CModelGraphCRC32C.h"

#if defined(__x86_64__)

#include <cpuid.h>
#include <immintrin.h>

#define MODELGRAPH_CRC __attribute__((target("sse4.2")))
#define MODELGRAPH_CRC_CLMUL __attribute__((target("sse4.2,pclmul")))

int modelgraph_crc32c_hardware_support(void) {
  unsigned int eax, ebx, ecx, edx;
  if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return 0;
  if (!(ecx & bit_SSE4_2)) return 0;
  return (ecx & bit_PCLMUL) ? 2 : 1;
}

static inline uint64_t load64(const unsigned char *p) {
  uint64_t value;
  __builtin_memcpy(&value, p, 8);
  return value;
}

static inline uint32_t load32(const unsigned char *p) {
  uint32_t value;
  __builtin_memcpy(&value, p, 4);
  return value;
}

MODELGRAPH_CRC static uint32_t serial(uint32_t crc, const unsigned char *p, size_t count) {
  uint64_t wide = crc;
  for (; count >= 8; count -= 8, p += 8) wide = _mm_crc32_u64(wide, load64(p));
  crc = (uint32_t)wide;
  if (count >= 4) {
    crc = _mm_crc32_u32(crc, load32(p));
    p += 4;
    count -= 4;
  }
  for (; count > 0; count--, p++) crc = _mm_crc32_u8(crc, *p);
  return crc;
}

MODELGRAPH_CRC uint32_t modelgraph_crc32c_serial(uint32_t crc, const void *bytes, size_t count) {
  return serial(crc, (const unsigned char *)bytes, count);
}

/// The 64-bit word whose `crc32` from zero is `crc * x^(8n) mod P`, where `constant` is
/// x^(8n - 33) mod P, reflected.
MODELGRAPH_CRC_CLMUL static inline uint64_t shift(uint32_t crc, uint32_t constant) {
  __m128i product = _mm_clmulepi64_si128(
    _mm_cvtsi32_si128((int)crc), _mm_cvtsi32_si128((int)constant), 0);
  return (uint64_t)_mm_cvtsi128_si64(product);
}

/// Three streams of `length` bytes at `*p`, from `crc`; `one` and `two` are x^(8 length - 33)
/// and x^(16 length - 33) mod P, reflected. Advances `*p` by three lengths.
MODELGRAPH_CRC_CLMUL static inline uint32_t three(
  uint32_t crc, const unsigned char **p, size_t length, uint32_t one, uint32_t two) {
  const unsigned char *a = *p;
  const unsigned char *end = a + length;
  uint64_t c0 = crc, c1 = 0, c2 = 0;
  do {
    c0 = _mm_crc32_u64(c0, load64(a));
    c1 = _mm_crc32_u64(c1, load64(a + length));
    c2 = _mm_crc32_u64(c2, load64(a + 2 * length));
    a += 8;
  } while (a < end);
  *p = a + 2 * length;
  uint64_t joined = shift((uint32_t)c0, two) ^ shift((uint32_t)c1, one);
  return (uint32_t)_mm_crc32_u64(0, joined) ^ (uint32_t)c2;
}

// Stream lengths (multiples of 8) and their constants, from x^n mod P by square-and-multiply.
#define LONG_LENGTH 4096
#define LONG_ONE 0x82F89C77u /* x^(8 * 4096 - 33) */
#define LONG_TWO 0x54A86326u /* x^(16 * 4096 - 33) */
#define SHORT_LENGTH 256
#define SHORT_ONE 0xB9E02B86u /* x^(8 * 256 - 33) */
#define SHORT_TWO 0xDD7E3B0Cu /* x^(16 * 256 - 33) */

MODELGRAPH_CRC_CLMUL uint32_t modelgraph_crc32c_interleaved(
  uint32_t crc, const void *bytes, size_t count) {
  const unsigned char *p = (const unsigned char *)bytes;
  for (; count >= 3 * LONG_LENGTH; count -= 3 * LONG_LENGTH)
    crc = three(crc, &p, LONG_LENGTH, LONG_ONE, LONG_TWO);
  for (; count >= 3 * SHORT_LENGTH; count -= 3 * SHORT_LENGTH)
    crc = three(crc, &p, SHORT_LENGTH, SHORT_ONE, SHORT_TWO);
  return serial(crc, p, count);
}

#elif defined(__aarch64__)

#if defined(__linux__)
#include <sys/auxv.h>
#ifndef HWCAP_CRC32
#define HWCAP_CRC32 (1 << 7)
#endif
#endif

#define MODELGRAPH_CRC __attribute__((target("crc")))

int modelgraph_crc32c_hardware_support(void) {
#if defined(__APPLE__)
  return 1;
#elif defined(__linux__)
  return (getauxval(AT_HWCAP) & HWCAP_CRC32) ? 1 : 0;
#else
  return 0;
#endif
}

MODELGRAPH_CRC uint32_t modelgraph_crc32c_serial(uint32_t crc, const void *bytes, size_t count) {
  const unsigned char *p = (const unsigned char *)bytes;
  for (; count >= 8; count -= 8, p += 8) {
    uint64_t value;
    __builtin_memcpy(&value, p, 8);
    crc = __builtin_arm_crc32cd(crc, value);
  }
  for (; count > 0; count--, p++) crc = __builtin_arm_crc32cb(crc, *p);
  return crc;
}

uint32_t modelgraph_crc32c_interleaved(uint32_t crc, const void *bytes, size_t count) {
  return modelgraph_crc32c_serial(crc, bytes, count);
}

#else

int modelgraph_crc32c_hardware_support(void) { return 0; }

uint32_t modelgraph_crc32c_serial(uint32_t crc, const void *bytes, size_t count) {
  (void)bytes;
  (void)count;
  __builtin_trap();
  return crc;
}

uint32_t modelgraph_crc32c_interleaved(uint32_t crc, const void *bytes, size_t count) {
  (void)bytes;
  (void)count;
  __builtin_trap();
  return crc;
}

#endif
