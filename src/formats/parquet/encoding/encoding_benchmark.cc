// Parquet decode per encoding: 1M values cut into pages of 16384 values (about what the
// writer puts in a page), encoded once, decoded every iteration into a reused buffer:
//   PLAIN int64 / double / byte array, RLE_DICTIONARY int64 (1000 distinct) and byte array
//   (gathering views), DELTA_BINARY_PACKED int64 (ascending keys, small deltas, like
//   o_orderkey) and random int32, DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY (sorted strings
//   sharing prefixes) and BYTE_STREAM_SPLIT double.
// Reports values/s and encoded MB/s. (parquet_reader_benchmark measures whole files.)
//
//   build/release/src/formats/parquet/parquet_encoding_benchmark [--benchmark_filter=...]
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "formats/parquet/encoding/byte_stream_split.h"
#include "formats/parquet/encoding/delta.h"
#include "formats/parquet/encoding/dictionary.h"
#include "formats/parquet/encoding/plain.h"

namespace sqe::parquet {
namespace {

constexpr int64_t kValues = 1 << 20;
constexpr int64_t kPageValues = 16384;

void Check(const Status& status) {
  if (!status.ok()) {
    std::fprintf(stderr, "decode failed: %s\n", status.ToString().c_str());
    std::abort();
  }
}
template <typename T>
void Check(const Result<T>& result) {
  Check(result.status());
}

std::vector<int64_t> RandomInt64(int64_t distinct, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int64_t> pick(0, distinct - 1);
  std::vector<int64_t> v(kValues);
  for (auto& x : v) x = pick(rng);
  return v;
}

std::vector<std::string> Words(uint64_t seed, bool sorted) {
  static constexpr const char* kWords[] = {"furiously", "regular", "deposits", "sleep",
                                           "carefully", "final",   "requests", "haggle"};
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> count(1, 4);
  std::uniform_int_distribution<int> word(0, 7);
  std::vector<std::string> v(kValues);
  for (auto& s : v) {
    for (int w = count(rng); w > 0; --w) {
      if (!s.empty()) s.push_back(' ');
      s.append(kWords[word(rng)]);
    }
  }
  if (sorted) std::sort(v.begin(), v.end());
  return v;
}

std::vector<std::string_view> Views(const std::vector<std::string>& strings) {
  return std::vector<std::string_view>(strings.begin(), strings.end());
}

/// Encoded pages, the number of values in each and their total size.
struct Pages {
  std::vector<std::string> pages;
  std::vector<int64_t> counts;
  int64_t bytes = 0;
};

/// Pages of kPageValues values: encode(first, n, out) appends values [first, first + n).
template <typename Encode>
Pages Paginate(Encode encode) {
  Pages out;
  for (int64_t first = 0; first < kValues; first += kPageValues) {
    std::string page;
    const int64_t n = std::min(kPageValues, kValues - first);
    encode(first, n, &page);
    out.bytes += static_cast<int64_t>(page.size());
    out.pages.push_back(std::move(page));
    out.counts.push_back(n);
  }
  return out;
}

/// The benchmark loop: decode(data, size, n) decodes one page of n values; then the
/// counters (values/s, encoded MB/s, bytes a value) and the label.
template <typename Decode>
void DecodeAll(benchmark::State& state, const Pages& pages, const char* label, Decode decode) {
  for (auto _ : state) {
    for (size_t i = 0; i < pages.pages.size(); ++i) {
      const std::string& p = pages.pages[i];
      decode(reinterpret_cast<const uint8_t*>(p.data()), p.size(), pages.counts[i]);
    }
  }
  state.SetLabel(label);
  state.counters["values_per_s"] = benchmark::Counter(
      static_cast<double>(kValues), benchmark::Counter::kIsIterationInvariantRate);
  state.counters["encoded_MB_per_s"] = benchmark::Counter(
      static_cast<double>(pages.bytes) / 1e6, benchmark::Counter::kIsIterationInvariantRate);
  state.counters["bytes_per_value"] = static_cast<double>(pages.bytes) / kValues;
}

/// PLAIN pages of `values` (int64_t or double) decoded into a reused buffer.
template <typename T>
void PlainFixed(benchmark::State& state, const std::vector<T>& values, const char* label) {
  const Pages pages = Paginate([&](int64_t first, int64_t n, std::string* out) {
    EncodePlain(values.data() + first, n, out);
  });
  std::vector<T> out(kPageValues);
  DecodeAll(state, pages, label, [&](const uint8_t* data, size_t size, int64_t n) {
    Check(DecodePlain(data, size, n, out.data()));
    benchmark::DoNotOptimize(out.data());
  });
}

void BM_PlainInt64(benchmark::State& state) {
  PlainFixed(state, RandomInt64(int64_t{1} << 40, 31), "PLAIN int64");
}

void BM_PlainDouble(benchmark::State& state) {
  std::mt19937_64 rng(32);
  std::uniform_real_distribution<double> pick(0, 1e6);
  std::vector<double> values(kValues);
  for (auto& v : values) v = pick(rng);
  PlainFixed(state, values, "PLAIN double");
}

void BM_PlainByteArray(benchmark::State& state) {
  const auto strings = Words(33, false);
  const auto views = Views(strings);
  const Pages pages = Paginate([&](int64_t first, int64_t n, std::string* out) {
    EncodePlainByteArray(views.data() + first, n, out);
  });
  std::vector<std::string_view> out(kPageValues);
  DecodeAll(state, pages, "PLAIN byte_array", [&](const uint8_t* data, size_t size, int64_t n) {
    Check(DecodePlainByteArray(data, size, n, out.data()));
    benchmark::DoNotOptimize(out.data());
  });
}

/// RLE_DICTIONARY pages of `indices` into `dictionary`, gathered into a reused buffer.
template <typename T>
void Dictionary(benchmark::State& state, const std::vector<T>& dictionary,
                const std::vector<uint32_t>& indices, const char* label) {
  const auto size = static_cast<int64_t>(dictionary.size());
  const Pages pages = Paginate([&](int64_t first, int64_t n, std::string* out) {
    EncodeDictionaryIndices(indices.data() + first, n, size, out);
  });
  std::vector<T> out(kPageValues);
  DecodeAll(state, pages, label, [&](const uint8_t* data, size_t bytes, int64_t n) {
    Check(DecodeDictionaryIndices(data, bytes, dictionary.data(), size, n, out.data()));
    benchmark::DoNotOptimize(out.data());
  });
}

void BM_DictionaryInt64(benchmark::State& state) {
  const int64_t dictionary_size = 1000;
  const auto picks = RandomInt64(dictionary_size, 34);
  std::vector<int64_t> dictionary(dictionary_size);
  for (int64_t i = 0; i < dictionary_size; ++i) dictionary[i] = i * 7919 + 13;
  Dictionary(state, dictionary, std::vector<uint32_t>(picks.begin(), picks.end()),
             "RLE_DICTIONARY int64 (1000 distinct)");
}

void BM_DictionaryByteArray(benchmark::State& state) {
  const auto words = Words(35, false);
  // The distinct values (up to 4,680 word sequences) as the dictionary page.
  std::vector<std::string> distinct = words;
  std::sort(distinct.begin(), distinct.end());
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  std::vector<uint32_t> indices(kValues);
  for (int64_t i = 0; i < kValues; ++i) {
    indices[i] = static_cast<uint32_t>(
        std::lower_bound(distinct.begin(), distinct.end(), words[i]) - distinct.begin());
  }
  Dictionary(state, Views(distinct), indices, "RLE_DICTIONARY byte_array");
}

/// DELTA_BINARY_PACKED pages of `values` (int32_t or int64_t).
template <typename T>
void DeltaBinaryPacked(benchmark::State& state, const std::vector<T>& values, const char* label) {
  const Pages pages = Paginate([&](int64_t first, int64_t n, std::string* out) {
    EncodeDeltaBinaryPacked(values.data() + first, n, out);
  });
  std::vector<T> out(kPageValues);
  DecodeAll(state, pages, label, [&](const uint8_t* data, size_t size, int64_t n) {
    DeltaBinaryPackedDecoder decoder;
    Check(decoder.Init(data, size));
    Check(decoder.Decode(out.data(), n));
    benchmark::DoNotOptimize(out.data());
  });
}

void BM_DeltaBinaryPackedKeys(benchmark::State& state) {
  // Ascending keys with gaps of 1..4 (sparse order keys).
  std::mt19937_64 rng(36);
  std::uniform_int_distribution<int64_t> gap(1, 4);
  std::vector<int64_t> values(kValues);
  int64_t key = 0;
  for (auto& v : values) v = key += gap(rng);
  DeltaBinaryPacked(state, values, "DELTA_BINARY_PACKED int64 ascending");
}

void BM_DeltaBinaryPackedRandom(benchmark::State& state) {
  const auto wide = RandomInt64(1 << 20, 37);
  DeltaBinaryPacked(state, std::vector<int32_t>(wide.begin(), wide.end()),
                    "DELTA_BINARY_PACKED int32 random");
}

void BM_DeltaLengthByteArray(benchmark::State& state) {
  const auto strings = Words(38, false);
  const auto views = Views(strings);
  const Pages pages = Paginate([&](int64_t first, int64_t n, std::string* out) {
    EncodeDeltaLengthByteArray(views.data() + first, n, out);
  });
  std::vector<std::string_view> out;
  out.reserve(kPageValues);
  DecodeAll(state, pages, "DELTA_LENGTH_BYTE_ARRAY",
            [&](const uint8_t* data, size_t size, int64_t) {
              out.clear();
              Check(DecodeDeltaLengthByteArray(data, size, &out));
              benchmark::DoNotOptimize(out.data());
            });
}

void BM_DeltaByteArray(benchmark::State& state) {
  const auto strings = Words(39, true);
  const auto views = Views(strings);
  const Pages pages = Paginate([&](int64_t first, int64_t n, std::string* out) {
    EncodeDeltaByteArray(views.data() + first, n, out);
  });
  DecodeAll(state, pages, "DELTA_BYTE_ARRAY sorted",
            [&](const uint8_t* data, size_t size, int64_t) {
              BinaryValues out;
              Check(DecodeDeltaByteArray(data, size, &out));
              benchmark::DoNotOptimize(out.data.data());
            });
}

void BM_ByteStreamSplitDouble(benchmark::State& state) {
  std::mt19937_64 rng(40);
  std::uniform_int_distribution<int64_t> cents(100, 10000000);
  std::vector<double> values(kValues);
  for (auto& v : values) v = static_cast<double>(cents(rng)) / 100;
  const Pages pages = Paginate([&](int64_t first, int64_t n, std::string* out) {
    EncodeByteStreamSplit(reinterpret_cast<const uint8_t*>(values.data() + first), n, 8, out);
  });
  std::vector<double> out(kPageValues);
  DecodeAll(
      state, pages, "BYTE_STREAM_SPLIT double", [&](const uint8_t* data, size_t size, int64_t n) {
        Check(DecodeByteStreamSplit(data, size, n, 8, reinterpret_cast<uint8_t*>(out.data())));
        benchmark::DoNotOptimize(out.data());
      });
}

BENCHMARK(BM_PlainInt64)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_PlainDouble)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_PlainByteArray)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_DictionaryInt64)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_DictionaryByteArray)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_DeltaBinaryPackedKeys)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_DeltaBinaryPackedRandom)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_DeltaLengthByteArray)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_DeltaByteArray)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_ByteStreamSplitDouble)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace sqe::parquet

BENCHMARK_MAIN();
