// A small mutation fuzzer for toolchains without libFuzzer (GCC): starts from the
// target's seeds, applies random mutations (bit flips, byte overwrites with interesting
// values, inserts, deletes, truncations, block copies, splices of two corpus entries;
// about half of the rounds from the target's SqeFuzzCustomMutate when it defines one)
// and feeds every input to LLVMFuzzerTestOneInput for --seconds. Inputs that reach a
// new size class or were derived from seeds are kept in the corpus. A crash is caught by
// ASan/UBSan, which abort the process; the death callback first saves the input to
// --crash-dir so it can be replayed with `<target> FILE`.
//
// Usage: <target> [--seconds N (default $SQE_FUZZ_SECONDS or 60)] [--seed S] [--crash-dir DIR]
// [FILE...]
//   with FILEs: run each once (replay) and exit.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#if defined(__has_include)
#if __has_include(<sanitizer/common_interface_defs.h>)
#include <sanitizer/common_interface_defs.h>
#define SQE_HAVE_SANITIZER_CALLBACK 1
#endif
#endif

#include "fuzz_target.h"

namespace {

std::string g_current;
std::string g_crash_dir = ".";

void SaveCurrentInput() {
  std::string path = g_crash_dir + "/crash-input.bin";
  std::ofstream out(path, std::ios::binary);
  out.write(g_current.data(), static_cast<std::streamsize>(g_current.size()));
  std::fprintf(stderr, "fuzz: crashing input (%zu bytes) saved to %s\n", g_current.size(),
               path.c_str());
}

void Run(const std::string& input) {
  g_current = input;
  LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(g_current.data()), g_current.size());
}

class Mutator {
 public:
  explicit Mutator(uint64_t seed) : rng_(seed) {}

  std::string Mutate(std::string input, const std::vector<std::string>& corpus) {
    int rounds = 1 + static_cast<int>(Below(4));
    for (int r = 0; r < rounds; ++r) {
      if (SqeFuzzCustomMutate != nullptr && Below(2) == 0) {
        SqeFuzzCustomMutate(input, corpus, rng_);
      } else {
        MutateOnce(&input, corpus);
      }
    }
    if (input.size() > kMaxSize) input.resize(kMaxSize);
    return input;
  }

 private:
  static constexpr size_t kMaxSize = 1 << 20;

  uint64_t Below(uint64_t n) { return n == 0 ? 0 : rng_() % n; }

  void MutateOnce(std::string* s, const std::vector<std::string>& corpus) {
    static const int64_t kInteresting[] = {
        0, 1, -1, 2, 127, 128, 255, 256, 0x7fff, 0xffff, 0x7fffffff, -0x7fffffff - 1, 0xffffffffll};
    switch (Below(9)) {
      case 0:  // flip a bit
        if (!s->empty()) (*s)[Below(s->size())] ^= static_cast<char>(1u << Below(8));
        break;
      case 1:  // random byte
        if (!s->empty()) (*s)[Below(s->size())] = static_cast<char>(Below(256));
        break;
      case 2: {  // interesting little-endian value of 1, 2 or 4 bytes
        if (s->empty()) break;
        int64_t v = kInteresting[Below(std::size(kInteresting))];
        size_t width = size_t{1} << Below(3);
        size_t pos = Below(s->size());
        for (size_t i = 0; i < width && pos + i < s->size(); ++i) {
          (*s)[pos + i] = static_cast<char>((v >> (8 * i)) & 0xff);
        }
        break;
      }
      case 3: {  // insert random bytes
        size_t pos = Below(s->size() + 1);
        std::string bytes(1 + Below(8), '\0');
        for (char& c : bytes) c = static_cast<char>(Below(256));
        s->insert(pos, bytes);
        break;
      }
      case 4: {  // delete a block
        if (s->empty()) break;
        size_t pos = Below(s->size());
        s->erase(pos, 1 + Below(std::min<size_t>(16, s->size() - pos)));
        break;
      }
      case 5:  // truncate
        if (!s->empty()) s->resize(Below(s->size()));
        break;
      case 6: {  // duplicate a block elsewhere
        if (s->size() < 2) break;
        size_t from = Below(s->size());
        size_t len = 1 + Below(std::min<size_t>(32, s->size() - from));
        std::string block = s->substr(from, len);
        s->insert(Below(s->size() + 1), block);
        break;
      }
      case 7: {  // splice with another corpus entry
        const std::string& other = corpus[Below(corpus.size())];
        if (other.empty()) break;
        size_t cut = Below(s->size() + 1);
        size_t from = Below(other.size());
        *s = s->substr(0, cut) + other.substr(from);
        break;
      }
      default:  // overwrite a byte with a neighbour's value +-1 (length fields)
        if (!s->empty()) {
          size_t pos = Below(s->size());
          (*s)[pos] = static_cast<char>((*s)[pos] + (Below(2) ? 1 : -1));
        }
        break;
    }
  }

  std::mt19937_64 rng_;
};

}  // namespace

int main(int argc, char** argv) {
  // Default budget: $SQE_FUZZ_SECONDS, else 60 s (what CI runs).
  const char* env_seconds = std::getenv("SQE_FUZZ_SECONDS");
  double seconds = env_seconds != nullptr ? std::atof(env_seconds) : 60;
  uint64_t seed =
      static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
  std::vector<std::string> replay;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--seconds" && i + 1 < argc) {
      seconds = std::atof(argv[++i]);
    } else if (arg == "--seed" && i + 1 < argc) {
      seed = std::strtoull(argv[++i], nullptr, 10);
    } else if (arg == "--crash-dir" && i + 1 < argc) {
      g_crash_dir = argv[++i];
    } else if (arg.starts_with("--")) {
      std::cerr << "unknown option " << arg << "\nusage: " << argv[0]
                << " [--seconds N] [--seed S] [--crash-dir DIR] [FILE...]\n";
      return 2;
    } else {
      replay.push_back(arg);
    }
  }
#ifdef SQE_HAVE_SANITIZER_CALLBACK
  __sanitizer_set_death_callback(SaveCurrentInput);
#endif
  if (!replay.empty()) {
    for (const std::string& path : replay) {
      std::ifstream in(path, std::ios::binary);
      if (!in) {
        std::cerr << "cannot read " << path << "\n";
        return 2;
      }
      std::stringstream ss;
      ss << in.rdbuf();
      Run(ss.str());
      std::cerr << "fuzz: replayed " << path << " without a crash\n";
    }
    return 0;
  }

  std::vector<std::string> corpus = SqeFuzzSeeds();
  if (corpus.empty()) corpus.push_back("");
  for (const std::string& s : corpus) Run(s);

  Mutator mutator(seed);
  std::mt19937_64 pick(seed ^ 0x9e3779b97f4a7c15ull);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  uint64_t runs = 0;
  while (std::chrono::steady_clock::now() < deadline) {
    for (int batch = 0; batch < 64; ++batch) {
      const std::string& base = corpus[pick() % corpus.size()];
      std::string input = mutator.Mutate(base, corpus);
      Run(input);
      ++runs;
      // Keep a bounded sample of mutants so mutations compound.
      if (corpus.size() < 4096 && pick() % 16 == 0) corpus.push_back(std::move(input));
    }
  }
  std::cerr << "fuzz: " << runs << " inputs in " << seconds << " s (seed " << seed
            << "), no crash\n";
  return 0;
}
