// STREAM's, BS's and the OpenCL device's typed options: the new names and
// their old ones (one option; two spellings with different values are one
// usage error naming both), on/off flags that still take true/false, and a
// stored configuration given by old names that reads back the same.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "TestSupport.hpp"
#include "bs/BsOptions.hpp"
#include "ocl/OclOptions.hpp"
#include "run/CommandLine.hpp"
#include "stream/StreamOptions.hpp"

namespace bws {
namespace {

using test::config_with;
using test::usage_error_of;

TEST(StreamBsOclOptions, BufferElementsAndItsOldNameAreOneOption) {
  EXPECT_EQ(ocl::ocl_stream_schema().read(Config(), false).buffer_elements, 4096u);
  EXPECT_EQ(ocl::ocl_stream_schema().read(config_with({{"ocl.buffer-elements", "2048"}}), false).buffer_elements, 2048u);
  const ocl::OclStreamShapeOptions old = ocl::ocl_stream_schema().read(config_with({{"ocl.buffer-size", "512"}}), false);
  EXPECT_EQ(old.buffer_elements, 512u);
  EXPECT_EQ(old.flag(&ocl::OclStreamShapeOptions::buffer_elements), "--ocl.buffer-size");  // messages name what was typed
  EXPECT_EQ(ocl::ocl_stream_schema()
                .read(config_with({{"ocl.buffer-elements", "1024"}, {"ocl.buffer-size", "1024"}}), false)
                .buffer_elements,
            1024u);
  EXPECT_EQ(usage_error_of([] {
              ocl::ocl_stream_schema().read(config_with({{"ocl.buffer-elements", "1024"}, {"ocl.buffer-size", "2048"}}),
                                            false);
            }),
            "--ocl.buffer-elements '1024' and --ocl.buffer-size '2048' are one option (--ocl.buffer-elements and its "
            "old name) with two values; allowed: one value");
}

TEST(StreamBsOclOptions, BooleansAreOnOffAndStillTakeTrueFalse) {
  for (const char* on : {"on", "true", "yes", "1"}) {
    EXPECT_TRUE(bs::bs_schema().read(config_with({{"bs.mask-boundary", on}}), false).mask_boundary) << on;
    EXPECT_TRUE(ocl::ocl_device_schema().read(config_with({{"ocl.list", on}}), false).list) << on;
  }
  for (const char* off : {"off", "false", "no", "0"})
    EXPECT_FALSE(ocl::ocl_stream_schema().read(config_with({{"ocl.single-kernel", off}}), false).single_kernel) << off;
  EXPECT_FALSE(bs::bs_schema().read(Config(), false).mask_boundary);
  EXPECT_TRUE(ocl::ocl_stream_schema().read(Config(), false).single_kernel);
  const std::string e = usage_error_of([] { bs::bs_schema().read(config_with({{"bs.mask-boundary", "maybe"}}), false); });
  EXPECT_NE(e.find("--bs.mask-boundary: 'maybe'"), std::string::npos) << e;
  EXPECT_NE(e.find("allowed: on, off"), std::string::npos) << e;
}

TEST(StreamBsOclOptions, QuickValuesApplyOnlyToOptionsLeftAtTheirDefault) {
  const stream::StreamOptions quick = stream::stream_schema().read(Config(), true);
  EXPECT_EQ(quick.reps, 5);
  EXPECT_EQ(stream::stream_schema().read(config_with({{"stream.reps", "9"}}), true).reps, 9);
  EXPECT_EQ(stream::stream_schema().read(config_with({{"stream.ntimes", "9"}}), true).reps, 9);
  const bs::BsOptions bs_quick = bs::bs_schema().read(Config(), true);
  EXPECT_EQ(bs_quick.points, 12);
  EXPECT_EQ(bs_quick.reps, 5);
  EXPECT_EQ(bs_quick.degrees, (std::vector<int>{1, 4, 7}));
  EXPECT_EQ(bs::bs_schema().read(config_with({{"bs.degrees", "2..3"}}), true).degrees, (std::vector<int>{2, 3}));
}

// Repetitions are *.reps everywhere: --stream.ntimes and --ocl.ntimes are
// old names of --stream.reps; two spellings with two values are one usage
// error naming both.
TEST(StreamBsOclOptions, StreamRepsKeepsItsOldNames) {
  const auto parse = [](std::vector<const char*> args) {
    args.insert(args.begin(), "bwsurvey");
    return run::parse_command_line(static_cast<int>(args.size()), args.data(),
                                      [](const std::string&) { return std::string(); });
  };
  const auto reps = [&](std::vector<const char*> args) {
    return stream::stream_schema().read(parse(std::move(args)).config, false).reps;
  };
  EXPECT_EQ(reps({"--stream.reps", "7"}), 7);
  EXPECT_EQ(reps({"--stream.ntimes", "7"}), 7);
  EXPECT_EQ(reps({"--ocl.ntimes", "7"}), 7);
  EXPECT_EQ(reps({"--ocl.ntimes", "7", "--stream.ntimes", "7", "--stream.reps", "7"}), 7);
  EXPECT_EQ(reps({}), 20);
  const std::string both = usage_error_of([&] { reps({"--stream.reps", "7", "--stream.ntimes", "8"}); });
  EXPECT_NE(both.find("--stream.reps '7' and --stream.ntimes '8'"), std::string::npos) << both;
  const std::string ocl = usage_error_of([&] { reps({"--ocl.ntimes", "7", "--stream.reps", "8"}); });
  EXPECT_NE(ocl.find("--ocl.ntimes '7' and --stream.reps '8' disagree"), std::string::npos) << ocl;
  const std::string old = usage_error_of([&] { reps({"--ocl.ntimes", "7", "--stream.ntimes", "8"}); });
  EXPECT_NE(old.find("--stream.ntimes '8'"), std::string::npos) << old;
  EXPECT_EQ(old.find('\n'), std::string::npos) << old;
}

// Given by old names (and old boolean words), stored, and read back through
// --config: the same typed values and the same text.
TEST(StreamBsOclOptions, AStoredConfigurationWithOldNamesReadsBackTheSame) {
  const char* argv[] = {"bwsurvey", "--tests", "stream,bs", "--ocl.buffer-size", "2048", "--bs.mask-boundary",
                        "true", "--ocl.single-kernel=false", "--stream.ntimes", "7"};
  const run::CommandLine given =
      run::parse_command_line(10, argv, [](const std::string&) { return std::string(); });
  const std::string ini = given.config.to_ini(run::invocation_only_keys());
  EXPECT_NE(ini.find("\nbuffer-size = 2048\n"), std::string::npos) << ini;
  const char* replay[] = {"bwsurvey", "--config", "c.ini"};
  const run::CommandLine again = run::parse_command_line(3, replay, [&](const std::string&) { return ini; });
  for (const run::CommandLine* cl : {&given, &again}) {
    const ocl::OclStreamShapeOptions shape = ocl::ocl_stream_schema().read(cl->config, false);
    EXPECT_EQ(shape.buffer_elements, 2048u);
    EXPECT_EQ(shape.flag(&ocl::OclStreamShapeOptions::buffer_elements), "--ocl.buffer-size");
    EXPECT_FALSE(shape.single_kernel);
    EXPECT_TRUE(bs::bs_schema().read(cl->config, false).mask_boundary);
    EXPECT_EQ(stream::stream_schema().read(cl->config, false).reps, 7);
  }
  EXPECT_EQ(again.config.to_ini(run::invocation_only_keys()), ini);
}

}  // namespace
}  // namespace bws
