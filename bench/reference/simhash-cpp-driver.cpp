// Times seomoz/simhash-cpp (built beside this project, never part of it) on inputs written by
// bench/reference.mjs, so that both are measured in one run on one machine. Build:
//   g++ -O3 -march=native -std=c++11 -I<simhash-cpp>/include \
//       bench/reference/simhash-cpp-driver.cpp <simhash-cpp>/src/simhash.cpp \
//       <simhash-cpp>/src/permutation.cpp -o simhash-cpp-driver
// Usage: find-all FILE BLOCKS DISTANCE RUNS | compute FILE DOCUMENTS PER_DOCUMENT RUNS
// FILE holds little-endian u64 values; prints {"medianMs": …, "result": …} as JSON.

#include "simhash.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <unordered_set>
#include <vector>

static std::vector<Simhash::hash_t> read_values(const char* path) {
  std::ifstream in(path, std::ios::binary);
  std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<Simhash::hash_t> values(bytes.size() / 8);
  std::memcpy(values.data(), bytes.data(), values.size() * 8);
  return values;
}

template <typename F>
static double median_ms(int runs, F body) {
  std::vector<double> samples;
  for (int r = 0; r < runs; ++r) {
    auto start = std::chrono::steady_clock::now();
    body();
    samples.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  }
  std::sort(samples.begin(), samples.end());
  return samples[samples.size() / 2];
}

int main(int argc, char** argv) {
  if (argc != 6) {
    std::fprintf(stderr, "usage: find-all FILE BLOCKS DISTANCE RUNS | compute FILE DOCUMENTS PER_DOCUMENT RUNS\n");
    return 2;
  }
  std::vector<Simhash::hash_t> values = read_values(argv[2]);
  size_t a = std::strtoul(argv[3], nullptr, 10), b = std::strtoul(argv[4], nullptr, 10);
  int runs = std::atoi(argv[5]);
  size_t result = 0;
  double ms = 0;
  if (std::strcmp(argv[1], "find-all") == 0) {
    std::unordered_set<Simhash::hash_t> set(values.begin(), values.end());
    ms = median_ms(runs, [&] { result = Simhash::find_all(set, a, b).size(); });
  } else if (std::strcmp(argv[1], "compute") == 0) {
    ms = median_ms(runs, [&] {
      for (size_t d = 0; d < a; ++d) {
        std::vector<Simhash::hash_t> doc(values.begin() + d * b, values.begin() + (d + 1) * b);
        result ^= Simhash::compute(doc);
      }
    });
  } else {
    return 2;
  }
  std::printf("{\"medianMs\": %.3f, \"result\": %zu}\n", ms, result);
  return 0;
}
