// Advice that works: every --time-budget refusal that names an option
// value ("allowed: --time-budget 4 or more, or --stream.reps 5 or
// --stream.elements 65536") is planned again with that value, on the same
// machine (the same modelled speed: the estimate the check uses), and must
// be accepted. STREAM once named "--stream.reps 2" as fitting when even two
// repetitions did not fit.
#include <gtest/gtest.h>

#include <cctype>
#include <sstream>
#include <string>
#include <vector>

#include "BeffTestSupport.hpp"
#include "TestSupport.hpp"
#include "beff/BeffBenchmark.hpp"
#include "bs/BsBenchmark.hpp"
#include "core/TimeEstimate.hpp"
#include "pmbw/PmbwPlan.hpp"
#include "stream/StreamBenchmark.hpp"
#include "topology/Topology.hpp"

namespace bws {
namespace {

using test::config_with;
using test::usage_error_of;

struct Suggestion {
  std::string option;  // without the dashes: "stream.reps", "time-budget"
  std::string value;
};

// Every "--name VALUE" after "allowed: " whose VALUE is a number.
std::vector<Suggestion> suggestions_of(const std::string& message) {
  std::vector<Suggestion> out;
  const auto at = message.find("allowed: ");
  if (at == std::string::npos) return out;
  std::istringstream words(message.substr(at));
  std::string previous, word;
  while (words >> word) {
    while (!word.empty() && (word.back() == ',' || word.back() == ';' || word.back() == ')')) word.pop_back();
    if (previous.rfind("--", 0) == 0 && !word.empty() && std::isdigit(static_cast<unsigned char>(word[0])))
      out.push_back({previous.substr(2), word});
    previous = word;
  }
  return out;
}

// The configuration and budget with one suggestion taken.
template <typename Context>
void take(const Suggestion& s, Config& config, Context& context) {
  if (s.option == "time-budget")
    context.time_budget_seconds = std::stod(s.value);
  else
    config.set(s.option, s.value);
}

// Refused with at least `expected` suggestions, each accepted by `plan`.
template <typename Context, typename Plan>
void expect_advice_accepted(const Config& config, const Context& context, Plan plan, std::size_t expected,
                            const std::string& refused_with) {
  const std::string message = usage_error_of([&] { plan(config, context); });
  test::expect_one_line_with(message, refused_with);
  const std::vector<Suggestion> advice = suggestions_of(message);
  EXPECT_GE(advice.size(), expected) << message;
  for (const Suggestion& s : advice) {
    Config taken = config;
    Context with = context;
    take(s, taken, with);
    EXPECT_EQ(usage_error_of([&] { plan(taken, with); }), "(no UsageError)")
        << "--" << s.option << " " << s.value << " was named by: " << message;
  }
}

const topo::Topology& small_node() {
  static const topo::Topology t =
      topo::Topology::synthetic("numa:1(memory=24GiB) pack:1 l3:1(size=1MiB) core:2 pu:1");
  return t;
}

MachineSpeed slow_machine() {
  MachineSpeed s;
  s.memory_Bps = 1e9;
  s.thread_memory_Bps = 1e9;
  s.first_touch_Bps = 1e9;
  return s;
}

TEST(BudgetAdvice, TheParserFindsEveryValue) {
  const auto advice = suggestions_of("--time-budget 1 s: x (a; b); allowed: --time-budget 3 or more, or --stream.reps 5 "
                                     "or --stream.elements 65536");
  ASSERT_EQ(advice.size(), 3u);
  EXPECT_EQ(advice[0].option, "time-budget");
  EXPECT_EQ(advice[0].value, "3");
  EXPECT_EQ(advice[1].option, "stream.reps");
  EXPECT_EQ(advice[2].value, "65536");
}

TEST(BudgetAdvice, StreamRepsAndElementsNamedFit) {
  const auto stream = stream::make_stream_benchmark();
  const auto plan = [&](const Config& c, const NodeContext& n) { stream->plan(c, n); };
  const NodeContext node{small_node(), "n1", 0, 1, 0, 2, false, slow_machine(), 1.0};
  // 1M doubles, 20 repetitions given: ~1.7 s at 1 GB/s; fewer repetitions or a smaller array fit.
  expect_advice_accepted(config_with({{"stream.elements", "1M"}, {"stream.reps", "20"}}), node, plan, 3,
                         "--time-budget 1 s: stream's plan is estimated at ");
  // The same with --stream.ntimes, the old name.
  expect_advice_accepted(config_with({{"stream.elements", "1M"}, {"stream.ntimes", "20"}}), node, plan, 2,
                         "stream's plan is estimated at ");
}

TEST(BudgetAdvice, StreamNamesNoRepetitionsWhenEvenTheFewestDoNotFit) {
  const auto stream = stream::make_stream_benchmark();
  const auto plan = [&](const Config& c, const NodeContext& n) { stream->plan(c, n); };
  const NodeContext node{small_node(), "n1", 0, 1, 0, 2, false, slow_machine(), 1.0};
  // 16M doubles: one repetition moves 1.3 GB, 1.3 s at 1 GB/s: 2 repetitions (the fewest) do not fit.
  for (const Config& config : {config_with({{"stream.elements", "16M"}}),
                               config_with({{"stream.elements", "16M"}, {"stream.reps", "10"}})}) {
    const std::string message = usage_error_of([&] { plan(config, node); });
    EXPECT_EQ(message.find("--stream.reps"), std::string::npos) << message;
    EXPECT_NE(message.find("--stream.elements "), std::string::npos) << message;
    expect_advice_accepted(config, node, plan, 2, "stream's plan is estimated at ");
  }
}

TEST(BudgetAdvice, PmbwSamplesOrMinimumTimeNamedFit) {
  const topo::Topology t = topo::Topology::synthetic(
      "pack:2 numa:1(memory=128GiB) l3:4(size=32MiB) l2:8(size=1MiB) l1d:1(size=48KiB) core:1 pu:1");
  const auto plan = [](const Config& c, const NodeContext& n) { pmbw::plan_pmbw(c, n); };
  const NodeContext node{t, "n1", 0, 1, 0, 64, false, MachineSpeed{}, 300};
  expect_advice_accepted(config_with({{"pmbw.threads", "1,64"},
                                      {"pmbw.min-bytes", "1K"},
                                      {"pmbw.max-bytes", "64M"},
                                      {"pmbw.min-time", "1"},
                                      {"pmbw.reps", "9"}}),
                         node, plan, 2, "--time-budget 300 s: pmbw's plan is estimated at ");
  expect_advice_accepted(config_with({{"pmbw.threads", "1..64"}, {"pmbw.max-bytes", "64M"}, {"pmbw.min-time", "1"},
                                      {"pmbw.reps", "3"}}),
                         node, plan, 1, "pmbw's plan is estimated at ");
}

TEST(BudgetAdvice, BeffAndBsBudgetsNamedFit) {
  RankLayout layout = beff::layout_with();
  layout.time_budget_seconds = 0.05;
  const auto beff = beff::make_beff_benchmark();
  expect_advice_accepted(config_with({{"beff.reps", "40"}, {"beff.random-rings", "8"}, {"beff.min-time", "0.1"}}),
                         layout, [&](const Config& c, const RankLayout& l) { beff->plan(c, l); }, 1,
                         "beff's plan is estimated at ");
  const auto bs = bs::make_bs_benchmark();
  const NodeContext node{small_node(), "n1", 0, 1, 0, 2, false, slow_machine(), 0.05};
  expect_advice_accepted(config_with({{"bs.reps", "50"}, {"bs.points", "40"}, {"bs.degrees", "1..7"}}), node,
                         [&](const Config& c, const NodeContext& n) { bs->plan(c, n); }, 1,
                         "bs's plan is estimated at ");
}

}  // namespace
}  // namespace bws
