// The pre-release aliases (docs/design-notes.md, "Pre-release aliases and
// their removal"): each old name given on the command line or in a --config
// file is one deprecation line naming the option that replaces it, once per
// run however often it is given, and is read as that option; the stored
// /config of a --resume file gives none.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "core/OptionAliases.hpp"
#include "ocl/OclOptions.hpp"
#include "ocl/OclRuntime.hpp"
#include "pmbw/PmbwOptions.hpp"
#include "run/CommandLine.hpp"
#include "stream/StreamOptions.hpp"

namespace bws {
namespace {

run::CommandLine parse(std::vector<const char*> args, const std::string& ini = "", const std::string& stored = "") {
  args.insert(args.begin(), "bwsurvey");
  return run::parse_command_line(
      static_cast<int>(args.size()), args.data(), [&](const std::string&) { return ini; },
      [&](const std::string&) { return stored; });
}

// The lines as bwsurvey prints them (after "bwsurvey: "), sorted.
std::vector<std::string> lines_of(const run::CommandLine& cl) {
  std::vector<std::string> lines;
  for (const Deprecation& d : cl.deprecations) lines.push_back(deprecation_line(d));
  std::sort(lines.begin(), lines.end());
  return lines;
}

using Lines = std::vector<std::string>;

TEST(DeprecatedAliases, TheNewNamesPrintNothing) {
  EXPECT_EQ(lines_of(parse({})), Lines{});
  EXPECT_EQ(lines_of(parse({"--tests", "stream,pmbw", "--stream.reps", "7", "--pmbw.reps", "4", "--pmbw.min-bytes",
                            "2K", "--ocl.buffer-elements", "512"})),
            Lines{});
}

TEST(DeprecatedAliases, ASchemaAliasOnTheCommandLineIsOneLineAndTheNewOption) {
  const run::CommandLine old = parse({"--stream.ntimes", "7"});
  EXPECT_EQ(lines_of(old), Lines{"--stream.ntimes is deprecated: use --stream.reps"});
  EXPECT_EQ(stream::stream_schema().read(old.config, false).reps, 7);
  EXPECT_EQ(stream::stream_schema().read(parse({"--stream.reps", "7"}).config, false).reps, 7);

  const run::CommandLine buffer = parse({"--ocl.buffer-size", "512"});
  EXPECT_EQ(lines_of(buffer), Lines{"--ocl.buffer-size is deprecated: use --ocl.buffer-elements"});
  EXPECT_EQ(ocl::ocl_stream_schema().read(buffer.config, false).buffer_elements, 512u);
}

TEST(DeprecatedAliases, SchemaAliasesInAConfigFileAreOneLineEach) {
  const run::CommandLine old =
      parse({"--config", "c.ini"}, "[pmbw]\nsamples = 4\nmin-size = 2K\nmax-size = 64K\n");
  EXPECT_EQ(lines_of(old), (Lines{"--pmbw.max-size is deprecated: use --pmbw.max-bytes",
                                  "--pmbw.min-size is deprecated: use --pmbw.min-bytes",
                                  "--pmbw.samples is deprecated: use --pmbw.reps"}));
  const pmbw::PmbwOptions read = pmbw::pmbw_schema().read(old.config, false);
  EXPECT_EQ(read.reps, 4);
  EXPECT_EQ(read.min_bytes, 2048u);
  EXPECT_EQ(read.max_bytes, std::optional<std::uint64_t>(65536));
}

TEST(DeprecatedAliases, AnAliasGivenTwiceIsOneLine) {
  const run::CommandLine twice = parse({"--config", "c.ini", "--pmbw.samples", "4"}, "[pmbw]\nsamples = 4\n");
  EXPECT_EQ(lines_of(twice), Lines{"--pmbw.samples is deprecated: use --pmbw.reps"});
  EXPECT_EQ(pmbw::pmbw_schema().read(twice.config, false).reps, 4);
}

TEST(DeprecatedAliases, TheOldOpenClOptionsAreOneLineEach) {
  const run::CommandLine old = parse({"--ocl.ntimes", "7", "--ocl.elements", "2M", "--ocl.type", "float"});
  EXPECT_EQ(lines_of(old), (Lines{"--ocl.elements is deprecated: use --stream.elements",
                                  "--ocl.ntimes is deprecated: use --stream.reps",
                                  "--ocl.type is deprecated: use --stream.type"}));
  const stream::StreamOptions read = stream::stream_schema().read(old.config, false);
  const stream::StreamOptions today =
      stream::stream_schema().read(parse({"--stream.reps", "7", "--stream.elements", "2M", "--stream.type", "float"}).config, false);
  EXPECT_EQ(read.reps, 7);
  EXPECT_EQ(read.elements.count, std::optional<std::uint64_t>(2u << 20));
  EXPECT_EQ(read.elements.count, today.elements.count);
  EXPECT_EQ(read.types, today.types);
}

TEST(DeprecatedAliases, TestsOclIsOneLineNamingWhatItRuns) {
  if (!ocl::ocl_compiled_in()) GTEST_SKIP() << "a build without OpenCL refuses --tests ocl";
  const run::CommandLine all = parse({"--tests", "ocl"});
  EXPECT_EQ(lines_of(all),
            Lines{"--tests ocl is deprecated: use --stream.backend ocl, --bs.backend ocl, --beff.path device"});
  EXPECT_EQ(all.config.get("stream.backend"), "ocl");
  const run::CommandLine stream_only = parse({"--config", "c.ini"}, "tests = ocl\n[ocl]\ntests = stream\n");
  EXPECT_EQ(lines_of(stream_only), (Lines{"--ocl.tests is deprecated: use --stream.backend ocl",
                                          "--tests ocl is deprecated: use --stream.backend ocl"}));
  EXPECT_EQ(stream_only.config.get("tests"), "stream");
  EXPECT_EQ(stream_only.config.get("stream.backend"), "ocl");
}

// A file is not a command line: the old names of a stored /config are read
// as the new ones, without a line.
TEST(DeprecatedAliases, AStoredConfigurationPrintsNothing) {
  const std::string stored = "tests = stream,pmbw\n[stream]\nntimes = 7\n[pmbw]\nsamples = 4\n[ocl]\nbuffer-size = 512\n";
  const run::CommandLine resumed = parse({"--resume", "old.h5"}, "", stored);
  EXPECT_EQ(lines_of(resumed), Lines{});
  EXPECT_EQ(stream::stream_schema().read(resumed.config, false).reps, 7);
  EXPECT_EQ(pmbw::pmbw_schema().read(resumed.config, false).reps, 4);
  EXPECT_EQ(ocl::ocl_stream_schema().read(resumed.config, false).buffer_elements, 512u);
  // The same alias typed again on the command line of the resume is a use.
  EXPECT_EQ(lines_of(parse({"--resume", "old.h5", "--stream.ntimes", "7"}, "", stored)),
            Lines{"--stream.ntimes is deprecated: use --stream.reps"});
}

}  // namespace
}  // namespace bws
