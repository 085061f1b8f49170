#pragma once
/// The contract of a fuzz target (tests/fuzz/README.md). A target defines
/// LLVMFuzzerTestOneInput (the libFuzzer entry point, so the same file also builds with
/// clang -fsanitize=fuzzer) and SqeFuzzSeeds, the seed inputs it builds in memory
/// (nothing binary is checked in). fuzz_driver.cc runs it under ASan for a time budget.

#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

/// Valid inputs for the mutator to start from.
std::vector<std::string> SqeFuzzSeeds();

/// Optional: a structure-aware mutation (e.g. on SQL tokens) of `input`, which may draw on
/// the other corpus entries. A target that defines it gets about half of its mutation
/// rounds from it, the rest from the driver's byte-level mutations; the symbol is weak, so
/// targets that do not define it are unchanged.
__attribute__((weak)) void SqeFuzzCustomMutate(std::string& input,
                                               const std::vector<std::string>& corpus,
                                               std::mt19937_64& rng);
