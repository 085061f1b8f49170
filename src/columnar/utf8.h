#pragma once
/// UTF-8 validation (RFC 3629: no overlongs, no surrogates, nothing above U+10FFFF).
/// Pure functions, thread-safe.

#include <cstddef>
#include <string_view>

namespace sqe::columnar {

/// Whether `text` is entirely well-formed UTF-8.
bool IsValidUtf8(std::string_view text);

/// Length in bytes of the well-formed UTF-8 sequence at the start of `text`, or 0 when
/// it does not start with one (or is empty).
size_t ValidUtf8SequenceLength(std::string_view text);

}  // namespace sqe::columnar
