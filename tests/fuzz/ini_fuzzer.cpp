// libFuzzer entry point of the INI fuzz target (tests/fuzz/IniFuzzTarget.hpp):
// built only with -DBWS_FUZZ=ON and clang. A finding aborts with the input
// (libFuzzer writes it as crash-*): keep it in tests/fuzz/ini/, which the
// unit test IniFuzz.RegressionFilesStayFixed replays.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "IniFuzzTarget.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const std::string finding = bws::fuzz::ini_fuzz_finding(text);
  if (!finding.empty()) {
    std::fprintf(stderr, "ini_fuzzer: %s\n", finding.c_str());
    std::abort();
  }
  return 0;
}
