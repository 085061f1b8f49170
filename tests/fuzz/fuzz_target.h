#pragma once
/// The contract of a fuzz target (tests/fuzz/README.md). A target defines
/// LLVMFuzzerTestOneInput (the libFuzzer entry point, so the same file also builds with
/// clang -fsanitize=fuzzer) and SqeFuzzSeeds, the seed inputs it builds in memory
/// (nothing binary is checked in). fuzz_driver.cc runs it under ASan for a time budget.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

/// Valid inputs for the mutator to start from.
std::vector<std::string> SqeFuzzSeeds();
