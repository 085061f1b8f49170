#include "common/byte_size.h"

#include <cctype>
#include <limits>

namespace sqe {
namespace {

constexpr uint64_t kKiB = 1024;

bool IEquals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i]))) {
      return false;
    }
  }
  return true;
}

Status SizeError(std::string_view text, std::string_view why) {
  return Status::InvalidArgument("invalid byte size '" + std::string(text) + "': " +
                                 std::string(why) +
                                 " (expected a whole number with an optional unit B, KB, MB, GB "
                                 "or TB, e.g. \"256MB\"; units are 1024-based)");
}

}  // namespace

Result<uint64_t> ParseByteSize(std::string_view text) {
  std::string_view s = text;
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  if (s.empty()) return SizeError(text, "empty");
  if (s.front() == '-') return SizeError(text, "negative sizes are not allowed");

  size_t digits = 0;
  while (digits < s.size() && std::isdigit(static_cast<unsigned char>(s[digits]))) ++digits;
  if (digits == 0) return SizeError(text, "no number");
  uint64_t number = 0;
  for (size_t i = 0; i < digits; ++i) {
    uint64_t d = static_cast<uint64_t>(s[i] - '0');
    if (number > (std::numeric_limits<uint64_t>::max() - d) / 10) {
      return SizeError(text, "too large");
    }
    number = number * 10 + d;
  }
  std::string_view unit = s.substr(digits);
  while (!unit.empty() && std::isspace(static_cast<unsigned char>(unit.front()))) {
    unit.remove_prefix(1);
  }
  uint64_t multiplier = 1;
  if (unit.empty() || IEquals(unit, "B")) {
    multiplier = 1;
  } else if (IEquals(unit, "KB") || IEquals(unit, "KiB") || IEquals(unit, "K")) {
    multiplier = kKiB;
  } else if (IEquals(unit, "MB") || IEquals(unit, "MiB") || IEquals(unit, "M")) {
    multiplier = kKiB * kKiB;
  } else if (IEquals(unit, "GB") || IEquals(unit, "GiB") || IEquals(unit, "G")) {
    multiplier = kKiB * kKiB * kKiB;
  } else if (IEquals(unit, "TB") || IEquals(unit, "TiB") || IEquals(unit, "T")) {
    multiplier = kKiB * kKiB * kKiB * kKiB;
  } else {
    return SizeError(text, "unknown unit '" + std::string(unit) + "'");
  }
  if (number != 0 && multiplier > std::numeric_limits<uint64_t>::max() / number) {
    return SizeError(text, "too large");
  }
  return number * multiplier;
}

std::string FormatByteSize(uint64_t bytes) {
  if (bytes == 0) return "0";
  static constexpr const char* kUnits[] = {"B", "KB", "MB", "GB", "TB"};
  int unit = 0;
  while (unit < 4 && bytes % kKiB == 0) {
    bytes /= kKiB;
    ++unit;
  }
  return std::to_string(bytes) + kUnits[unit];
}

}  // namespace sqe
