#pragma once
/// MurmurHash3, x86 32-bit variant: the hash Iceberg's bucket transform is defined on
/// (spec "Bucket Transform Details" and Appendix B). Pure function, thread-safe.

#include <cstdint>
#include <string_view>

namespace sqe::iceberg {

/// The 32-bit Murmur3 (x86) hash of `bytes` with `seed`; Iceberg always uses seed 0.
uint32_t Murmur3X86_32(std::string_view bytes, uint32_t seed = 0);

}  // namespace sqe::iceberg
