#include "datagen/tpch_generator.h"

#include <algorithm>
#include <cmath>

#include "datagen/batch_assembler.h"
#include "datagen/tpch_distributions.h"
#include "datagen/tpch_generator_internal.h"

namespace sqe::datagen {

using internal::FormatKeyName;
using internal::FormatPhone;
using internal::RandomVString;

namespace internal {

void AppendPadded(int64_t value, int width, std::string* out) {
  char digits[24];
  int n = 0;
  do {
    digits[n++] = static_cast<char>('0' + value % 10);
    value /= 10;
  } while (value > 0 && n < 20);
  for (int i = n; i < width; ++i) out->push_back('0');
  while (n > 0) out->push_back(digits[--n]);
}

void FormatKeyName(const char* prefix, int64_t value, std::string* out) {
  out->assign(prefix);
  AppendPadded(value, 9, out);
}

void FormatPhone(RowRandom& rng, int32_t nation_key, std::string* out) {
  out->clear();
  AppendPadded(nation_key + 10, 2, out);
  out->push_back('-');
  AppendPadded(rng.Uniform(100, 999), 3, out);
  out->push_back('-');
  AppendPadded(rng.Uniform(100, 999), 3, out);
  out->push_back('-');
  AppendPadded(rng.Uniform(1000, 9999), 4, out);
}

void RandomVString(RowRandom& rng, int min_length, int max_length, std::string* out) {
  static constexpr char kAlphabet[] =
      "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ, ";
  static_assert(sizeof(kAlphabet) - 1 == 64);
  const int64_t length = rng.Uniform(min_length, max_length);
  out->resize(static_cast<size_t>(length));
  uint64_t bits = 0;
  for (int64_t i = 0; i < length; ++i) {
    if (i % 10 == 0) bits = rng.Next();  // 6 bits a character, 10 from each draw
    (*out)[static_cast<size_t>(i)] = kAlphabet[bits & 63];
    bits >>= 6;
  }
}

}  // namespace internal

namespace {

/// Columns 0..5 of supplier and customer, which share their layout and domains (clause
/// 4.2.3): key, "<prefix><key padded to 9>", address, nation key, phone, account balance.
void AppendParty(const char* prefix, int64_t key, RowRandom& rng, BatchAssembler& out,
                 std::string* text) {
  out.Int64(0, key);
  FormatKeyName(prefix, key, text);
  out.String(1, *text);
  RandomVString(rng, 10, 40, text);
  out.String(2, *text);
  const auto nation = static_cast<int32_t>(rng.Uniform(0, 24));
  out.Int32(3, nation);
  FormatPhone(rng, nation, text);
  out.String(4, *text);
  out.Money(5, rng.Uniform(-99999, 999999));
}

}  // namespace

int64_t TpchPartSupplier(int64_t partkey, int64_t i, int64_t suppliers) {
  return (partkey + i * (suppliers / 4 + (partkey - 1) / suppliers)) % suppliers + 1;
}

int64_t TpchRetailPriceCents(int64_t partkey) {
  return 90000 + (partkey / 10) % 20001 + 100 * (partkey % 1000);
}

int64_t TpchOrderKey(int64_t index) {
  const int64_t n = index + 1;  // keys 1..7, 32..39, 64..71, ...: the low 3 bits kept
  return (n / 8) * 32 + n % 8;
}

TpchGenerator::TpchGenerator(const TpchOptions& options) : options_(options) {}

Result<std::unique_ptr<TpchGenerator>> TpchGenerator::Make(const TpchOptions& options) {
  if (!(options.scale_factor > 0) || options.scale_factor > 100000) {
    return Status::InvalidArgument("scale factor must be in (0, 100000], got " +
                                   std::to_string(options.scale_factor));
  }
  std::unique_ptr<TpchGenerator> g(new TpchGenerator(options));
  g->text_ = TextPool::Make(options.seed, options.text_pool_bytes);
  g->parts_ = g->UnitCount(TpchTable::kPart);
  g->suppliers_ = g->UnitCount(TpchTable::kSupplier);
  g->customers_ = g->UnitCount(TpchTable::kCustomer);
  // dbgen keeps 1000 clerks below SF 1 (O_CLERK draws from [1, SF x 1000] otherwise).
  g->clerks_ =
      std::max<int64_t>(1000, static_cast<int64_t>(std::floor(options.scale_factor * 1000 + 1e-6)));
  return g;
}

Result<columnar::Batch> TpchGenerator::Generate(TpchTable table, int64_t first,
                                                int64_t count) const {
  if (first < 0 || count < 0 || first + count > UnitCount(table)) {
    return Status::InvalidArgument("rows [" + std::to_string(first) + ", " +
                                   std::to_string(first + count) + ") are outside table " +
                                   std::string(TpchTableName(table)) + " (" +
                                   std::to_string(UnitCount(table)) + " units)");
  }
  switch (table) {
    case TpchTable::kRegion:
      return Region(first, count);
    case TpchTable::kNation:
      return Nation(first, count);
    case TpchTable::kPart:
      return Part(first, count);
    case TpchTable::kSupplier:
      return Supplier(first, count);
    case TpchTable::kPartSupp:
      return PartSupp(first, count);
    case TpchTable::kCustomer:
      return Customer(first, count);
    case TpchTable::kOrders:
      return Orders(first, count);
    case TpchTable::kLineitem:
      return Lineitem(first, count);
  }
  return Status::Internal("unknown TPC-H table");
}

Result<columnar::Batch> TpchGenerator::Region(int64_t first, int64_t count) const {
  BatchAssembler out(TpchSchema(TpchTable::kRegion), count);
  for (int64_t r = first; r < first + count; ++r) {
    RowRandom rng(options_.seed, internal::kRegionStream, static_cast<uint64_t>(r));
    out.Int32(0, static_cast<int32_t>(r));
    out.String(1, Regions()[static_cast<size_t>(r)]);
    out.String(2, text_->Text(rng, 31, 115));
  }
  return out.Finish(count);
}

Result<columnar::Batch> TpchGenerator::Nation(int64_t first, int64_t count) const {
  BatchAssembler out(TpchSchema(TpchTable::kNation), count);
  for (int64_t n = first; n < first + count; ++n) {
    RowRandom rng(options_.seed, internal::kNationStream, static_cast<uint64_t>(n));
    const NationEntry& nation = Nations()[static_cast<size_t>(n)];
    out.Int32(0, static_cast<int32_t>(n));
    out.String(1, nation.name);
    out.Int32(2, nation.region_key);
    out.String(3, text_->Text(rng, 31, 114));
  }
  return out.Finish(count);
}

Result<columnar::Batch> TpchGenerator::Part(int64_t first, int64_t count) const {
  BatchAssembler out(TpchSchema(TpchTable::kPart), count);
  std::string text;
  for (int64_t i = first; i < first + count; ++i) {
    RowRandom rng(options_.seed, internal::kPartStream, static_cast<uint64_t>(i));
    const int64_t key = i + 1;
    out.Int64(0, key);
    // P_NAME: five distinct colors.
    int64_t picked[5];
    text.clear();
    for (int w = 0; w < 5; ++w) {
      int64_t c;
      do {
        c = rng.Uniform(0, PartColors().size() - 1);
      } while (std::find(picked, picked + w, c) != picked + w);
      picked[w] = c;
      if (w > 0) text.push_back(' ');
      text.append(PartColors().at(c));
    }
    out.String(1, text);
    const int64_t m = rng.Uniform(1, 5);
    const int64_t n = rng.Uniform(1, 5);
    text.assign("Manufacturer#");
    internal::AppendPadded(m, 1, &text);
    out.String(2, text);
    text.assign("Brand#");
    internal::AppendPadded(m * 10 + n, 2, &text);
    out.String(3, text);
    text.assign(TypeSyllable1().Pick(rng));
    text.push_back(' ');
    text.append(TypeSyllable2().Pick(rng));
    text.push_back(' ');
    text.append(TypeSyllable3().Pick(rng));
    out.String(4, text);
    out.Int32(5, static_cast<int32_t>(rng.Uniform(1, 50)));
    text.assign(ContainerSyllable1().Pick(rng));
    text.push_back(' ');
    text.append(ContainerSyllable2().Pick(rng));
    out.String(6, text);
    out.Money(7, TpchRetailPriceCents(key));
    out.String(8, text_->Text(rng, 5, 22));
  }
  return out.Finish(count);
}

Result<columnar::Batch> TpchGenerator::Supplier(int64_t first, int64_t count) const {
  BatchAssembler out(TpchSchema(TpchTable::kSupplier), count);
  std::string text;
  for (int64_t i = first; i < first + count; ++i) {
    RowRandom rng(options_.seed, internal::kSupplierStream, static_cast<uint64_t>(i));
    AppendParty("Supplier#", i + 1, rng, out, &text);
    // S_COMMENT; about 5 in 10000 rows hold "Customer%Complaints" and as many
    // "Customer%Recommends" (clause 4.2.3), at a random position.
    text.assign(text_->Text(rng, 25, 100));
    const int64_t special = rng.Uniform(1, 10000);
    if (special <= 10) {
      const std::string_view tail = special <= 5 ? "Complaints" : "Recommends";
      constexpr std::string_view kHead = "Customer ";
      const int64_t room =
          static_cast<int64_t>(text.size()) - static_cast<int64_t>(kHead.size() + tail.size());
      const int64_t gap = rng.Uniform(0, std::max<int64_t>(0, room));
      const int64_t start = rng.Uniform(0, std::max<int64_t>(0, room - gap));
      text.replace(static_cast<size_t>(start), kHead.size(), kHead);
      text.replace(static_cast<size_t>(start) + kHead.size() + static_cast<size_t>(gap),
                   tail.size(), tail);
    }
    out.String(6, text);
  }
  return out.Finish(count);
}

Result<columnar::Batch> TpchGenerator::PartSupp(int64_t first, int64_t count) const {
  BatchAssembler out(TpchSchema(TpchTable::kPartSupp), count);
  for (int64_t j = first; j < first + count; ++j) {
    RowRandom rng(options_.seed, internal::kPartSuppStream, static_cast<uint64_t>(j));
    const int64_t partkey = j / 4 + 1;
    out.Int64(0, partkey);
    out.Int64(1, TpchPartSupplier(partkey, j % 4, suppliers_));
    out.Int64(2, rng.Uniform(1, 9999));
    out.Money(3, rng.Uniform(100, 100000));
    out.String(4, text_->Text(rng, 49, 198));
  }
  return out.Finish(count);
}

Result<columnar::Batch> TpchGenerator::Customer(int64_t first, int64_t count) const {
  BatchAssembler out(TpchSchema(TpchTable::kCustomer), count);
  std::string text;
  for (int64_t i = first; i < first + count; ++i) {
    RowRandom rng(options_.seed, internal::kCustomerStream, static_cast<uint64_t>(i));
    AppendParty("Customer#", i + 1, rng, out, &text);
    out.String(6, MarketSegments().Pick(rng));
    out.String(7, text_->Text(rng, 29, 116));
  }
  return out.Finish(count);
}

}  // namespace sqe::datagen
