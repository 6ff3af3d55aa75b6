// CRC-32C (Castagnoli) with the processor's CRC instructions, for ModelGraphCore's CRC32C.
//
// The functions take and return the raw register: the caller inverts the seed before and the
// result after (CRC32C.checksum does). Each is compiled for its instructions with a function
// attribute, so the target needs no compiler flags; call one only when
// modelgraph_crc32c_hardware_support() says the processor has what it needs.

#ifndef CMODELGRAPH_CRC32C_H
#define CMODELGRAPH_CRC32C_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// What this processor offers: 0 no CRC-32C instruction (use the table code), 1 the
/// instruction (modelgraph_crc32c_serial), 2 also a carry-less multiply
/// (modelgraph_crc32c_interleaved as well).
int modelgraph_crc32c_hardware_support(void);

/// The register after `count` bytes at `bytes`, one instruction after another. Needs support 1.
uint32_t modelgraph_crc32c_serial(uint32_t crc, const void *bytes, size_t count);

/// The same register, from three streams at once on long buffers, joined by carry-less
/// multiplication. Needs support 2.
uint32_t modelgraph_crc32c_interleaved(uint32_t crc, const void *bytes, size_t count);

#ifdef __cplusplus
}
#endif

#endif
