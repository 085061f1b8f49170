#include <algorithm>
#include <cctype>

#include "columnar/bitmap_builder.h"
#include "exec/functions/kernel_internal.h"

namespace sqe::exec::kernel {

namespace {
struct Pow10Table {
  int128 v[39];
  constexpr Pow10Table() : v() {
    v[0] = 1;
    for (int i = 1; i < 39; ++i) v[i] = v[i - 1] * 10;
  }
};
constexpr Pow10Table kPow10;
}  // namespace

int128 Pow10(int n) { return kPow10.v[n]; }

int128 DivPow10Round(int128 v, int n) {
  if (n <= 0) return v;
  if (n > 38) return 0;
  const int128 d = kPow10.v[n];
  int128 q = v / d;
  int128 r = v % d;
  if (r < 0) r = -r;
  if (r * 2 >= d) q += (v < 0 ? -1 : 1);
  return q;
}

bool MulPow10(int128 v, int n, int128* out) {
  if (n <= 0) {
    *out = v;
    return true;
  }
  if (n > 38) {
    *out = 0;
    return v == 0;
  }
  return !__builtin_mul_overflow(v, kPow10.v[n], out);
}

std::string Int128ToString(int128 v) {
  if (v == 0) return "0";
  const bool neg = v < 0;
  unsigned __int128 u =
      neg ? -static_cast<unsigned __int128>(v) : static_cast<unsigned __int128>(v);
  char buf[48];
  int pos = 48;
  while (u != 0) {
    buf[--pos] = static_cast<char>('0' + static_cast<int>(u % 10));
    u /= 10;
  }
  if (neg) buf[--pos] = '-';
  return std::string(buf + pos, 48 - pos);
}

Result<std::shared_ptr<Buffer>> AllocateBuffer(int64_t bytes, const EvalContext& ctx) {
  return Buffer::Allocate(bytes, ctx.tracker);
}

namespace {
Result<BufferPtr> IntersectImpl(const Column* const* cols, size_t n, int64_t rows,
                                const EvalContext& ctx, int64_t* null_count) {
  *null_count = 0;
  bool any = false;
  for (size_t k = 0; k < n; ++k) {
    if (cols[k]->null_count() != 0) any = true;
  }
  if (!any) return BufferPtr();
  SQE_ASSIGN_OR_RETURN(auto buf, AllocateBuffer(columnar::BytesForBits(rows), ctx));
  uint8_t* out = buf->mutable_data();
  bool first = true;
  for (size_t k = 0; k < n; ++k) {
    const Column& c = *cols[k];
    if (c.null_count() == 0) continue;
    const uint8_t* bits = c.validity()->data();
    const int64_t off = c.offset();
    if (first) {
      columnar::CopyBits(bits, off, rows, out, 0);
      first = false;
    } else if ((off & 7) == 0) {
      const uint8_t* src = bits + (off >> 3);
      const int64_t bytes = columnar::BytesForBits(rows);
      for (int64_t b = 0; b < bytes; ++b) out[b] &= src[b];
    } else {
      for (int64_t i = 0; i < rows; ++i) {
        if (!columnar::GetBit(bits, off + i)) columnar::ClearBit(out, i);
      }
    }
  }
  *null_count = rows - columnar::CountSetBits(out, 0, rows);
  if (*null_count == 0) return BufferPtr();
  return BufferPtr(std::move(buf));
}
}  // namespace

Result<BufferPtr> IntersectValidity(std::initializer_list<const Column*> columns, int64_t rows,
                                    const EvalContext& ctx, int64_t* null_count) {
  return IntersectImpl(columns.begin(), columns.size(), rows, ctx, null_count);
}

Result<BufferPtr> IntersectValidity(const std::vector<Column>& columns, int64_t rows,
                                    const EvalContext& ctx, int64_t* null_count) {
  std::vector<const Column*> ptrs;
  ptrs.reserve(columns.size());
  for (const Column& c : columns) ptrs.push_back(&c);
  return IntersectImpl(ptrs.data(), ptrs.size(), rows, ctx, null_count);
}

Result<Column> WithValidity(const Column& column, BufferPtr validity, int64_t null_count,
                            const EvalContext& ctx) {
  std::vector<BufferPtr> buffers = column.buffers();
  const int64_t off = column.offset();
  if (validity != nullptr && off != 0) {
    // The column's buffers are indexed from `off`: shift the bitmap to match.
    SQE_ASSIGN_OR_RETURN(auto shifted,
                         AllocateBuffer(columnar::BytesForBits(off + column.length()), ctx));
    columnar::CopyBits(validity->data(), 0, column.length(), shifted->mutable_data(), off);
    validity = std::move(shifted);
  }
  buffers[0] = null_count == 0 ? nullptr : std::move(validity);
  return Column::Make(column.type(), column.length(), std::move(buffers), column.children(),
                      null_count, off);
}

void AppendUtf8(uint32_t cp, std::string* out) {
  if (cp < 0x80) {
    out->push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

uint32_t NextCodePoint(std::string_view text, size_t* pos) {
  const auto b0 = static_cast<uint8_t>(text[*pos]);
  if (b0 < 0x80) {
    ++*pos;
    return b0;
  }
  int len = b0 >= 0xF0 ? 4 : b0 >= 0xE0 ? 3 : b0 >= 0xC0 ? 2 : 1;
  if (len == 1 || *pos + len > text.size()) {
    ++*pos;
    return 0xFFFD;
  }
  uint32_t cp = b0 & (len == 2 ? 0x1F : len == 3 ? 0x0F : 0x07);
  for (int k = 1; k < len; ++k) {
    const auto b = static_cast<uint8_t>(text[*pos + k]);
    if ((b & 0xC0) != 0x80) {
      ++*pos;
      return 0xFFFD;
    }
    cp = (cp << 6) | (b & 0x3F);
  }
  *pos += len;
  return cp;
}

int64_t CodePointCount(std::string_view text) {
  int64_t n = 0;
  for (char c : text) n += (static_cast<uint8_t>(c) & 0xC0) != 0x80;
  return n;
}

std::string UpperTypeName(const TypePtr& type) {
  if (type == nullptr) return "UNKNOWN";
  std::string s = type->ToString();
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

std::vector<TypePtr> IntegerTypes() {
  return {columnar::Int8(), columnar::Int16(), columnar::Int32(), columnar::Int64()};
}

}  // namespace sqe::exec::kernel
