#pragma once
/// TextPool: the TPC-H comment text (clause 4.2.2.10): one long string of sentences made
/// by the spec's grammar (4.2.2.14) from a fixed seed; a comment column's value is a
/// substring of it at a random offset with a random length in the column's [min, max].
/// Built once per generator run; immutable and thread-safe afterwards.

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "datagen/row_random.h"

namespace sqe::datagen {

class TextPool {
 public:
  /// The default size: big enough that comments rarely repeat, small enough to build in
  /// a fraction of a second.
  static constexpr int64_t kDefaultBytes = int64_t{16} << 20;

  /// A pool of at least `bytes` characters (and at least a few sentences).
  static std::shared_ptr<const TextPool> Make(uint64_t seed, int64_t bytes = kDefaultBytes);

  /// A substring of length uniform in [min_length, max_length] at a random offset.
  std::string_view Text(RowRandom& rng, int min_length, int max_length) const;

  const std::string& text() const { return text_; }

 private:
  std::string text_;
};

/// Appends one sentence of the grammar to `out` (no leading space).
void AppendSentence(RowRandom& rng, std::string* out);

}  // namespace sqe::datagen
