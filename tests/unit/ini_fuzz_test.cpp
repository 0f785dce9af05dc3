// A seeded fuzz test of the INI reader and of the option
// parsing of a config text. Real configs (--print-config of several test
// sets, the README's reference file) are mutated: bit flips, special
// characters, NULs, long lines, huge and odd numbers, deletions,
// duplications. Every input must be accepted or refused with a one-line
// UsageError of bounded length (tests/fuzz/IniFuzzTarget.hpp); anything
// else fails, and the input is written where the message says, to be kept
// in tests/fuzz/ini/ - which IniFuzz.RegressionFilesStayFixed replays.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "../fuzz/IniFuzzTarget.hpp"
#include "bws/Version.hpp"
#include "core/IniFile.hpp"
#include "core/OptionText.hpp"

namespace fs = std::filesystem;

namespace {

// The seeds: what users feed --config and --reference.
std::vector<std::string> seed_texts() {
  std::vector<std::string> seeds;
  for (std::vector<const char*> args : std::vector<std::vector<const char*>>{
           {"bwsurvey"},
           {"bwsurvey", "--quick"},
           {"bwsurvey", "--tests", "stream,beff,bs,pmbw,roofline", "--flags.floor", "stream.triad=1e9,bs.wmax[BS6,3]=1e9"},
           {"bwsurvey", "--tests", "pmbw", "--pmbw.threads", "1..2", "--pmbw.max-size", "64M"}}) {
    const auto cl = bws::run::parse_command_line(static_cast<int>(args.size()), args.data(),
                                                    [](const std::string&) { return std::string(); });
    seeds.push_back(cl.config.to_ini(bws::run::invocation_only_keys()));
  }
  seeds.push_back(
      "[gpu*]\nstream.triad[double] = 180, -0.10, none, GB/s\n[*]\nstream.triad = 30, -0.15, none, GB/s\n"
      "beff.per_rank = 5, -0.2, none, GB/s\npmbw.perm_ram_latency = 120, none, 0.2, ns\n");
  return seeds;
}

// Mutations of a text, from a seeded generator: the same inputs every run.
class Mutator {
 public:
  explicit Mutator(std::uint64_t seed) : random_(seed) {}

  std::string mutate(std::string text) {
    const int rounds = 1 + static_cast<int>(below(3));
    for (int i = 0; i < rounds; ++i) apply(text);
    return text;
  }

 private:
  std::uint64_t below(std::uint64_t n) { return n == 0 ? 0 : random_() % n; }

  // Where the INI syntax is hit.
  std::string token() {
    static const std::vector<std::string> tokens = {
        std::string(1, '\0'), "\n", "\r\n", "[", "]", "=", "#", ";", ",", "..", "-", "\"", "\\", "%h", "\xff",
        "\xc3\xa9", "\t", " ", "[stream]", "[flags]", "tests = pmbw", "tests = bs", "tests = stream,beff,bs,pmbw,roofline",
        "floor = stream.triad[quad]=1", "stream.triad = 1, -0.1, none, GB/s", "x = ", " = 1", "[]", "[a b]",
        "bs.wmax[BS6,3] = 1, none, none, B/s"};
    if (below(20) == 0) return std::string(1 + below(70000), "x9=[,#\n"[below(7)]);  // a long line or run
    return below(3) == 0 ? value() : tokens[below(tokens.size())];
  }

  // Where the options' parsers are hit: odd numbers, sizes, lists, ranges.
  std::string value() {
    static const std::vector<std::string> values = {
        "1e400", "-1", "99999999999999999999", "18446744073709551616", "nan", "inf", "-inf", "12x", "0x10", "1e-400",
        "-0", "", " ", "1K", "1e308T", "1.5", "4096", "0", "auto", "true", "1,,2", ",", "1..", "..5", "5..1", "1-",
        "1..99999999999", "8,1e400", "1e7", "64T", "2^63", "1,2,4", "all", "double", "9e18", "-9e18", "+5",
        "1E", ".", "1.", ".5", "1e+", "\x01", "stream.triad=1e400", "stream.triad[double]=-5"};
    if (below(10) == 0) return std::string(1 + below(5000), "9"[0]);  // a number of thousands of digits
    return values[below(values.size())];
  }

  void apply(std::string& text) {
    const std::size_t at = below(text.size() + 1);
    // Most mutations put a token where a value is (what the options' parsers
    // see); the others break the INI syntax around it.
    switch (below(10)) {
      case 9:  // flip a bit
        if (!text.empty()) text[at % text.size()] ^= static_cast<char>(1u << below(8));
        break;
      case 8:  // insert a special token
        text.insert(at, token());
        break;
      case 0:
      case 1:
      case 2:
      case 3: {  // replace the value of a line (any line with an '=', equally likely) with a token
        std::vector<std::size_t> equals;
        for (std::size_t line = 0; line < text.size(); line = text.find('\n', line) + 1) {
          const std::size_t eq = text.find('=', line);
          if (eq == std::string::npos) break;
          if (eq < text.find('\n', line)) equals.push_back(eq);
          if (text.find('\n', line) == std::string::npos) break;
        }
        if (equals.empty()) break;
        const std::size_t eq = equals[below(equals.size())];
        const std::size_t end = std::min(text.find('\n', eq), text.size());
        std::string replacement = value();  // (not " " + value(): gcc 12 warns falsely on it)
        replacement.insert(replacement.begin(), ' ');
        text.replace(eq + 1, end - eq - 1, replacement);
        break;
      }
      case 7:  // delete a range
        text.erase(at, below(64));
        break;
      case 4: {  // duplicate a range (a line twice, a section twice)
        const std::string piece = text.substr(at, below(200));
        text.insert(below(text.size() + 1), piece);
        break;
      }
      case 5: {  // swap two lines' order by moving a line
        const std::size_t begin = text.rfind('\n', at == 0 ? 0 : at - 1);
        const std::size_t from = begin == std::string::npos ? 0 : begin + 1;
        const std::size_t end = std::min(text.find('\n', from), text.size());
        const std::string line = text.substr(from, end - from + 1);
        text.erase(from, line.size());
        text.insert(below(text.size() + 1), line);
        break;
      }
      default:  // a random byte
        text.insert(at, 1, static_cast<char>(below(256)));
        break;
    }
  }

  std::mt19937_64 random_;
};

// Keeps a finding's input where a developer can take it into tests/fuzz/ini/.
std::string keep_finding(const std::string& text, std::size_t iteration) {
  const fs::path dir = fs::temp_directory_path() / "bws-ini-fuzz-findings";
  fs::create_directories(dir);
  const fs::path file = dir / ("finding-" + std::to_string(iteration) + ".ini");
  std::ofstream(file, std::ios::binary) << text;
  return file.string();
}

constexpr std::size_t kIterations = 3000;  // ~1 s in a release build, a few under ASan

}  // namespace

TEST(IniFuzz, SeedsAreAccepted) {
  for (const std::string& seed : seed_texts()) {
    // A config seed is a valid configuration; the reference seed a valid reference file.
    EXPECT_EQ(bws::fuzz::ini_fuzz_finding(seed), "") << seed;
  }
}

TEST(IniFuzz, MutatedConfigsAreAcceptedOrRefusedInOneLine) {
  const std::vector<std::string> seeds = seed_texts();
  Mutator mutator(13);
  std::size_t refused = 0, findings = 0;
  for (std::size_t i = 0; i < kIterations && findings < 10; ++i) {
    const std::string text = mutator.mutate(seeds[i % seeds.size()]);
    const std::string finding = bws::fuzz::ini_fuzz_finding(text);
    if (!finding.empty()) {
      ++findings;
      ADD_FAILURE() << "input " << i << " " << bws::quoted_input(text) << " (kept in " << keep_finding(text, i)
                    << "): " << finding;
    }
    try {  // how many the readers refused: the mutations must reach them
      bws::parse_ini(text, "f");
    } catch (const bws::UsageError&) {
      ++refused;
    }
  }
  EXPECT_GT(refused, kIterations / 20);            // the INI syntax is hit
  EXPECT_LT(refused, kIterations - kIterations / 4);  // and so is what lies beyond it
}

// Every input a fuzz run found (and the crashes found by hand earlier), kept.
TEST(IniFuzz, RegressionFilesStayFixed) {
  const fs::path dir = fs::path(BWS_SOURCE_DIR) / "tests" / "fuzz" / "ini";
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(dir))
    if (entry.is_regular_file()) files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  ASSERT_GE(files.size(), 5u);
  for (const fs::path& file : files) {
    std::ifstream in(file, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    EXPECT_EQ(bws::fuzz::ini_fuzz_finding(text.str()), "") << file;
  }
}
