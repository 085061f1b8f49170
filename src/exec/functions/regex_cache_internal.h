#pragma once
/// PatternCache and CompiledPattern: compiled RE2 patterns shared by every query and
/// thread, so a literal pattern compiles once per process (regexp.cc, string.cc).
/// Private to exec/functions.

#include <re2/re2.h>

#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

#include "common/result.h"

namespace sqe::exec::kernel {

/// Compiled patterns shared by every query and thread (RE2 matching is thread-safe), so a
/// literal pattern compiles once per process rather than once per batch; bounded, cleared
/// when full.
class PatternCache {
 public:
  static Result<std::shared_ptr<const re2::RE2>> Get(std::string_view pattern) {
    static PatternCache* cache = new PatternCache();  // never destroyed
    return cache->Lookup(pattern);
  }

 private:
  static constexpr size_t kMaxEntries = 512;

  Result<std::shared_ptr<const re2::RE2>> Lookup(std::string_view pattern) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = patterns_.find(std::string(pattern));
    if (it != patterns_.end()) return it->second;
    re2::RE2::Options options;
    options.set_log_errors(false);
    auto re =
        std::make_shared<const re2::RE2>(re2::StringPiece(pattern.data(), pattern.size()), options);
    if (!re->ok()) {
      return Status::InvalidArgument("invalid regular expression '" + std::string(pattern) +
                                     "': " + re->error());
    }
    if (patterns_.size() >= kMaxEntries) patterns_.clear();
    patterns_.emplace(std::string(pattern), re);
    return std::shared_ptr<const re2::RE2>(re);
  }

  std::mutex mutex_;
  std::unordered_map<std::string, std::shared_ptr<const re2::RE2>> patterns_;
};

/// The compiled pattern of the current row, looked up again only when the pattern text
/// changes from the previous row.
class CompiledPattern {
 public:
  Result<const re2::RE2*> Get(std::string_view pattern) {
    if (re_ != nullptr && pattern == text_) return re_.get();
    SQE_ASSIGN_OR_RETURN(re_, PatternCache::Get(pattern));
    text_.assign(pattern);
    return re_.get();
  }

 private:
  std::shared_ptr<const re2::RE2> re_;
  std::string text_;
};

}  // namespace sqe::exec::kernel
